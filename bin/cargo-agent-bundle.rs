//! `cargo agent-bundle`: parse, run, render the error, exit with its code.

use std::io::Write as _;

use agent_bundle::{ExitCode, cli};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The stack of the thread a command runs on.
const MAIN_STACK_BYTES: usize = 256 * 1024 * 1024;

fn main() {
    let cli = match cli::parse_args(std::env::args_os()) {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            let code = if error.use_stderr() { ExitCode::Usage } else { ExitCode::Success };
            std::process::exit(code as i32);
        }
    };
    // On a thread with a large stack (only what is used is touched): whatever recursion an input
    // drives past the depth limits, it does not abort the process.
    let thread = std::thread::Builder::new()
        .name("cargo-agent-bundle".into())
        .stack_size(MAIN_STACK_BYTES)
        .spawn(move || run(&cli));
    let code = match thread.map(|thread| thread.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(error) => {
            eprintln!("error: cannot start the command's thread: {error}");
            ExitCode::Failure
        }
    };
    std::process::exit(code as i32);
}

/// Runs the command, printing through writers that escape control characters (text from the input
/// reaches the terminal as visible escapes), and returns the exit code.
fn run(cli: &cli::Cli) -> ExitCode {
    let mut stdout = cli::terminal::Escaped::new(std::io::stdout().lock());
    let mut stderr = cli::terminal::Escaped::new(std::io::stderr().lock());
    let code = match cli::run(cli, &mut stdout, &mut stderr) {
        Ok(()) => ExitCode::Success,
        Err(error) => {
            // Reported errors were already printed with their diagnostics.
            if !matches!(error, agent_bundle::Error::Reported { .. }) {
                let _ = writeln!(stderr, "error: {error}");
            }
            error.exit_code()
        }
    };
    // `exit` runs no destructors: flush here.
    let _ = stdout.flush();
    let _ = stderr.flush();
    code
}
