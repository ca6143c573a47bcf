//! `cargo agent-bundle`: parse, run, render the error, exit with its code.

use agent_bundle::{ExitCode, cli};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let cli = match cli::parse_args(std::env::args_os()) {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            let code = if error.use_stderr() { ExitCode::Usage } else { ExitCode::Success };
            std::process::exit(code as i32);
        }
    };
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let result = cli::run(&cli, &mut stdout.lock(), &mut stderr.lock());
    match result {
        Ok(()) => std::process::exit(ExitCode::Success as i32),
        Err(error) => {
            // Reported errors were already printed with their diagnostics.
            if !matches!(error, agent_bundle::Error::Reported { .. }) {
                eprintln!("error: {error}");
            }
            std::process::exit(error.exit_code() as i32);
        }
    }
}
