//! The process runner: the command the host starts for a hook, from its document in the artifact,
//! run with the envelope on stdin, TERM-then-KILL at the timeout or on cancel, its output captured.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use camino::Utf8Path;
use serde_json::Value;

use super::SimulateError;
use super::place::Place;
use super::server::SharedServer;
use crate::artifact::IndexRow;
use crate::hosts::{self, CommandShell};

/// After TERM, how long the wrapper gets before KILL.
const KILL_GRACE: Duration = Duration::from_millis(250);
/// Most bytes kept of each output stream.
const OUTPUT_CAP: usize = 1_000_000;

pub(super) struct Run {
    pub(super) exit_code: Option<i32>,
    pub(super) timed_out: bool,
    pub(super) cancelled: bool,
    pub(super) stdout: String,
    pub(super) stderr: String,
    pub(super) wall_time: Duration,
}

/// The process the host starts for the hook of `row`: what the host's document in the artifact holds
/// for the hook's wrapper, with the host's root token replaced in its text by the installed plugin's
/// folder and the root variables the host's table records set to it, in the artifact's folder (a run
/// moves it to the host's place, [`Place`]): an exec form's program started with its arguments (the
/// token replaced in each, as the host does), else the command line run by the host's POSIX shell
/// (`bash -c`; `sh -c` where the host's shell need not be a POSIX one, whose command runs `sh`
/// itself). Its stdio is left to the caller.
pub fn host_command(artifact: &Utf8Path, row: &IndexRow) -> Result<Command, SimulateError> {
    let surface = hosts::table(row.host).hooks.as_ref().expect("indexed hosts have hooks");
    let (root, file) = plugin_folder(artifact, row);
    if row.hooks_module || row.combined.is_some() || row.warm_server {
        // A hook of the host's hooks module, of a combined command or of the warm server: the module
        // (the command's wrapper, the server) imports its wrapper, so node runs the runtime's
        // decision for that wrapper alone, as below: the hook's own answer, which the host receives combined with the others'.
        let runtime = root.join(crate::hosts::layout::RUNTIME_PATH);
        return Ok(in_process_command(artifact, &runtime, &root.join(file), None));
    }
    let in_process = surface.in_process();
    let entry = written_entry(artifact, row)?;
    if in_process {
        // The host's process is stood for by node running the entry module's decision for the
        // document's wrapper module: the runtime the entry module imports, on the envelope the entry
        // module would have made of the host's hook arguments.
        let runtime = root.join(crate::hosts::layout::RUNTIME_PATH);
        let module = surface.entry_module.as_deref().map(|module| artifact.join(module));
        return Ok(in_process_command(
            artifact,
            &runtime,
            &root.join(entry.command.command.trim_start_matches("./")),
            module,
        ));
    }
    // The host replaces its root token in the command's text (and in each argument of an exec
    // form) before it runs it, and sets the root variables its table records.
    let substituted = |text: &str| text.replace(&surface.root_token, root.as_str());
    let mut command = match entry.command.args.is_empty() {
        true => {
            let mut command = Command::new(shell_program(surface.command_shell));
            command.arg("-c").arg(substituted(&entry.command.command));
            command
        }
        false => {
            let mut command = Command::new(&entry.command.command);
            command.args(entry.command.args.iter().map(|arg| substituted(arg)));
            command
        }
    };
    let root_variables = surface.hook_process.env.iter().filter(|(_, value)| **value == hosts::HookValue::PluginRoot);
    command.current_dir(artifact).envs(root_variables.map(|(variable, _)| (variable, &root)));
    Ok(command)
}

/// The host's plugin folder in `artifact` (its own folder where it has one) and `row`'s wrapper
/// relative to it.
pub(super) fn plugin_folder<'r>(artifact: &Utf8Path, row: &'r IndexRow) -> (camino::Utf8PathBuf, &'r str) {
    let surface = hosts::table(row.host).hooks.as_ref().expect("indexed hosts have hooks");
    match &surface.folder {
        Some(folder) => {
            let file = row.path.strip_prefix(folder.as_str()).and_then(|p| p.strip_prefix('/')).unwrap_or(&row.path);
            (artifact.join(folder), file)
        }
        None => (artifact.to_path_buf(), row.path.as_str()),
    }
}

/// The entry of the host's hook document in `artifact` that runs `row`'s wrapper (on an in-process
/// host, the entry that names its module), read back by the host's table.
pub(crate) fn written_entry(
    artifact: &Utf8Path,
    row: &IndexRow,
) -> Result<crate::pipeline::emit::WrittenEntry, SimulateError> {
    let surface = hosts::table(row.host).hooks.as_ref().expect("indexed hosts have hooks");
    let unreadable = |why: String| SimulateError::BadInput(format!("{}'s hook document: {why}", row.host));
    let text = fs_err::read_to_string(artifact.join(&surface.document)).map_err(|e| unreadable(e.to_string()))?;
    let document: Value = serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()))?;
    let named = format!("{}/{}", surface.root_token, plugin_folder(artifact, row).1);
    crate::pipeline::emit::read_hook_document(surface, &document)
        .into_iter()
        .find(|entry| {
            entry.native_event == row.native_event
                && match surface.in_process() {
                    true => entry.command.command == named,
                    false => {
                        let line = entry.command.to_string();
                        line.contains(&format!("{named}\""))
                            || line.ends_with(&named)
                            || line.contains(&format!("{named} "))
                    }
                }
        })
        .ok_or_else(|| unreadable(format!("no {} entry runs {}", row.native_event, row.path)))
}

/// Node running the runtime's decision for an in-process hook's wrapper module, in the artifact.
fn in_process_command(
    artifact: &Utf8Path,
    runtime: &Utf8Path,
    wrapper: &Utf8Path,
    entry: Option<camino::Utf8PathBuf>,
) -> Command {
    let mut command = Command::new(shell_program(CommandShell::InProcess));
    command.args(["--input-type=module", "-e", IN_PROCESS_SIMULATION]).arg(runtime).arg(wrapper);
    command.args(entry).current_dir(artifact);
    command
}

/// The script node runs for an in-process hook: the runtime's `simulateInProcess` on the wrapper
/// (with the host's entry module, which makes envelopes of recorded hook arguments, where it has one).
const IN_PROCESS_SIMULATION: &str = "const [runtime, wrapper, entry] = process.argv.slice(1); \
     const { pathToFileURL } = await import('node:url'); \
     const { simulateInProcess } = await import(pathToFileURL(runtime).href); \
     await simulateInProcess(wrapper, entry);";

/// The program that stands for the host's shell.
fn shell_program(shell: CommandShell) -> &'static str {
    match shell {
        CommandShell::Bash => "bash",
        CommandShell::AnyShell => "sh",
        CommandShell::InProcess => "node",
    }
}

/// The exit status a POSIX shell gives a command it cannot find.
const COMMAND_NOT_FOUND: i32 = 127;

pub(super) fn run_wrapper(
    artifact: &Utf8Path,
    row: &IndexRow,
    envelope: &Value,
    timeout: Duration,
    cancel: Option<&AtomicBool>,
    place: &Place,
) -> Result<Run, SimulateError> {
    use std::os::unix::process::CommandExt;

    // A shared route answers only with the plugin's MCP server running, as in the host.
    let server = row.shared_runtime.as_deref().map(|entry| SharedServer::start(artifact, entry)).transpose()?;
    let mut command = host_command(artifact, row)?;
    let shell = match row.hooks_module {
        true => shell_program(CommandShell::InProcess),
        false => shell_program(hosts::table(row.host).hooks.as_ref().expect("indexed hosts have hooks").command_shell),
    };
    // An exec form (or a hooks module's stand-in) starts node itself, with no shell in between.
    let starts_node = command.get_program() == shell_program(CommandShell::InProcess);
    let started = Instant::now();
    let mut child = command
        .env("AGENT_BUNDLE_HOOK_SIMULATION", "1")
        // An async hook's wrapper answers the host at once and runs its handler detached; simulated,
        // it runs attached (as its detached run does), so the handler's own outcome is shown and
        // nothing outlives the isolated copy.
        .env("AGENT_BUNDLE_DETACHED", &row.id)
        .envs(server.iter().map(|s| ("AGENT_BUNDLE_RUNTIME_DIR", s.runtime_dir.as_str())))
        .current_dir(&place.cwd)
        .envs(place.env.iter().map(|(key, value)| (key, value)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| if starts_node { SimulateError::Node(e) } else { SimulateError::Shell(shell, e) })?;

    let input = crate::vocabulary::json::compact(envelope).into_bytes();
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = capture(child.stdout.take().expect("stdout is piped"));
    let stderr = capture(child.stderr.take().expect("stderr is piped"));

    let (mut timed_out, mut cancelled) = (false, false);
    let status = loop {
        if let Some(status) = child.try_wait().map_err(SimulateError::Node)? {
            break status;
        }
        cancelled = cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        if cancelled || started.elapsed() >= timeout {
            timed_out = !cancelled;
            let group = -(child.id() as i32);
            // SAFETY: kill(2) with a process-group id we created; no memory is involved.
            unsafe { libc::kill(group, libc::SIGTERM) };
            let grace = Instant::now();
            while grace.elapsed() < KILL_GRACE {
                if child.try_wait().map_err(SimulateError::Node)?.is_some() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            // SAFETY: as above.
            unsafe { libc::kill(group, libc::SIGKILL) };
            break child.wait().map_err(SimulateError::Node)?;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let wall_time = started.elapsed();
    let _ = writer.join();
    let stderr = stderr.join().unwrap_or_default();
    // The wrapper itself exits 0, 1 or 2: 127 is the shell finding no `node` on PATH.
    if status.code() == Some(COMMAND_NOT_FOUND) {
        return Err(SimulateError::Node(std::io::Error::new(std::io::ErrorKind::NotFound, stderr.trim().to_string())));
    }
    Ok(Run {
        exit_code: status.code(),
        timed_out,
        cancelled,
        stdout: stdout.join().unwrap_or_default(),
        stderr,
        wall_time,
    })
}

fn capture(mut stream: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buffer = [0u8; 8192];
        while let Ok(n) = stream.read(&mut buffer) {
            if n == 0 {
                break;
            }
            let room = OUTPUT_CAP.saturating_sub(kept.len());
            kept.extend_from_slice(&buffer[..n.min(room)]);
        }
        String::from_utf8_lossy(&kept).into_owned()
    })
}
