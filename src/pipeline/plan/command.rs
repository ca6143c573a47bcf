//! What a host's document runs for a hook: the wrapper file and its command, decided here once per
//! hook and host, so the documents, the artifact index, `inspect` and `simulate` agree. A host runs
//! a command through a shell of its own, and on Windows through another one again (D17): each form
//! written here parses in every shell its host may run it in, as the host table's `windows` says.

use serde::Serialize;

use crate::hosts::{CommandShell, HookSurface, WindowsForm, WindowsShell};
use crate::pipeline::normalise::{Handler, Hook};
use crate::vocabulary::target::Target;

/// The descriptor on which a POSIX-only command hands the wrapper the host's stdout, its answer
/// channel: `3>&1 1>&2` makes fd 3 the host's stdout and fd 1 the host's stderr for the whole
/// process, so what the handler, its workers or its children write to fd 1 (`console.log`,
/// `fs.writeSync(1)`, `/dev/stdout`, `/proc/self/fd/1`, inherited stdio) goes to stderr. A command
/// that must parse in a Windows shell too hands nothing over: the runtime keeps fd 1 off the answer
/// itself. The runtime reads it from the wrapper's contract.
pub const ANSWER_FD: u32 = 3;

/// What a host's hook document holds to run one hook.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HostCommand {
    /// The entry's command: a POSIX shell's line, one line every shell of the host parses, the
    /// program of an exec form, or (in process) the wrapper module the host's module imports.
    pub command: String,
    /// An exec form's arguments: the host starts `command` with them, through no shell.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// The Windows command under a key of its own, where the host reads one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub windows: Option<KeyedCommand>,
}

/// A command under an entry key of its own (Codex `commandWindows`, Copilot CLI `powershell`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeyedCommand {
    pub key: String,
    pub command: String,
}

impl std::fmt::Display for HostCommand {
    /// The command as a line: an exec form's arguments quoted where they hold more than a path's
    /// characters, and agent-bundle's own loader named rather than spelled out.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.command)?;
        for arg in &self.args {
            if arg == LOADER {
                f.write_str(" <agent-bundle's loader>")?;
                continue;
            }
            let plain =
                !arg.is_empty() && arg.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./:=@+,${}\\".contains(&b));
            match plain {
                true => write!(f, " {arg}")?,
                false => write!(f, " {}", serde_json::to_string(arg).expect("strings serialise"))?,
            }
        }
        Ok(())
    }
}

/// Why a prebuilt handler's argument cannot be written for a host: no quoting keeps it one
/// argument in every shell the host may run the command in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unquotable {
    pub arg: String,
    pub shells: String,
}

/// The wrapper of a hook on a host: `hooks/<name>.mjs` when the hook reaches one host,
/// `hooks/<name>.<host>.mjs` when it reaches several (all its hosts, whatever a build narrows to,
/// so that a narrowed build writes the same file names); under the host's own folder when it has one.
pub fn wrapper_path(hook: &Hook, target: Target, hosts_reached: usize, folder: Option<&str>) -> String {
    let file = crate::hosts::layout::wrapper_file(&hook.name, (hosts_reached > 1).then_some(target));
    match folder {
        Some(folder) => format!("{folder}/{file}"),
        None => file,
    }
}

/// What the host's document runs for `hook`: node on its wrapper (or on a prebuilt file with its
/// arguments, which answers on its own stdout), named from the host's root token (its plugin
/// folder: `folder` when the host has its own), in the forms the host's table asks for.
pub fn host_command(hook: &Hook, surface: &HookSurface, wrapper: Option<&str>) -> Result<HostCommand, Unquotable> {
    match (&hook.handler, wrapper) {
        (Handler::Module { .. }, Some(wrapper)) => command_for(surface, within_root(surface, wrapper), &[], true),
        (Handler::Prebuilt { artifact_path, .. }, _) => command_for(surface, artifact_path.clone(), &hook.args, false),
        (Handler::Module { .. }, None) => unreachable!("a handler module always has a wrapper"),
    }
}

/// What a host's document runs for a combined command ([`super::combined`]): node on its wrapper,
/// in the same forms as a hook's.
pub fn combined_command(surface: &HookSurface, wrapper: &str) -> HostCommand {
    command_for(surface, within_root(surface, wrapper), &[], true).expect("a wrapper's path needs no quoting")
}

/// An artifact path relative to the host's root: its own folder where it has one.
fn within_root(surface: &HookSurface, path: &str) -> String {
    match &surface.folder {
        Some(folder) => {
            path.strip_prefix(folder.as_str()).and_then(|p| p.strip_prefix('/')).unwrap_or(path).to_string()
        }
        None => path.to_string(),
    }
}

/// The command running `file` (relative to the host's root) with `args`; `handover`: a wrapper, to
/// which a POSIX-only command hands the host's stdout on [`ANSWER_FD`].
fn command_for(
    surface: &HookSurface,
    file: String,
    args: &[String],
    handover: bool,
) -> Result<HostCommand, Unquotable> {
    let root = surface.root_token.as_str();
    let posix_line = || -> String {
        let mut line = match (handover, surface.command_shell) {
            // `exec`: bash makes the redirections and becomes node, so no shell process stays beside
            // it (without it, a command with redirections keeps bash waiting: two processes a call).
            (true, CommandShell::Bash) => format!("exec node \"{root}/{file}\" {ANSWER_FD}>&1 1>&2"),
            // A shell that need not be a POSIX one: the redirections made by `sh`, whose `exec`
            // leaves no shell process behind; any shell that runs the plain command runs it too.
            (true, CommandShell::AnyShell) => {
                format!("sh -c 'exec node \"$1\" {ANSWER_FD}>&1 1>&2' sh \"{root}/{file}\"")
            }
            _ => format!("node \"{root}/{file}\""),
        };
        for arg in args {
            line.push(' ');
            line.push_str(&posix_quote(arg));
        }
        line
    };
    let unquotable =
        |arg: &str, shells: &[WindowsShell]| Unquotable { arg: arg.to_string(), shells: WindowsShell::list(shells) };
    match &surface.windows.form {
        // The host's entry module imports the wrapper: the document names it from the module's folder.
        WindowsForm::InProcess => Ok(HostCommand { command: format!("{root}/{file}"), ..HostCommand::default() }),
        WindowsForm::Exec { .. } => {
            let mut all = match handover {
                true => vec!["-e".to_string(), LOADER.to_string(), format!("{root}/{file}")],
                false => vec![format!("{root}/{file}")],
            };
            all.extend(args.iter().cloned());
            Ok(HostCommand { command: "node".into(), args: all, windows: None })
        }
        WindowsForm::OwnKey { key, root_token, shells } => {
            let separator = if shells.contains(&WindowsShell::GitBash) { "/" } else { "\\" };
            let mut command = format!("node \"{root_token}{separator}{}\"", file.replace('/', separator));
            for arg in args {
                command.push(' ');
                command.push_str(&windows_quote(arg, shells, true).ok_or_else(|| unquotable(arg, shells))?);
            }
            if shells.contains(&WindowsShell::PowerShell) {
                // PowerShell ends `-Command` with 1 for any failing program: the wrapper's blocking
                // exit 2 is kept only by exiting with the program's own code. cmd.exe passes the
                // words to node as arguments, which the wrapper ignores.
                command.push_str(" ; exit $LASTEXITCODE");
            }
            let windows = KeyedCommand { key: key.clone(), command };
            Ok(HostCommand { command: posix_line(), args: Vec::new(), windows: Some(windows) })
        }
        WindowsForm::SameCommand { shells, quote_root } => {
            let mut command = match quote_root {
                true => format!("node \"{root}/{file}\""),
                false => format!("node {root}/{file}"),
            };
            for arg in args {
                command.push(' ');
                let quoted = windows_quote(arg, shells, *quote_root).ok_or_else(|| unquotable(arg, shells))?;
                command.push_str(&quoted);
            }
            Ok(HostCommand { command, ..HostCommand::default() })
        }
    }
}

/// The loader an exec form runs with `node -e` (a CommonJS script): it finds the wrapper from the
/// root the host handed over, whatever its form (`C:\…`, `C:/…`, MSYS `/c/…` on Windows, or the
/// root token left unexpanded, which it reads from the host's environment), imports it by its
/// file URL, and fails the hook (exit 1, the reason on stderr) when it cannot.
pub const LOADER: &str = concat!(
    "const{argv:[,given],env,platform}=process;",
    "let file=given.replace(/\\$\\{(\\w+)\\}|\\$env:(\\w+)|%(\\w+)%|\\$(\\w+)/g,(all,a,b,c,d)=>env[a??b??c??d]??all);",
    "if(platform==='win32'&&!require('node:fs').existsSync(file))",
    "file=file.replace(/^\\/(?:cygdrive\\/)?([a-z])(?=\\/|$)/i,'$1:');",
    "import(require('node:url').pathToFileURL(require('node:path').resolve(file)).href).catch((error)=>{",
    "process.stderr.write(`Agent Bundle hook error: node could not load the hook's wrapper ${file}: ${error?.message??error}\\n`);",
    "process.exitCode=1})",
);

/// An argument for a POSIX shell: bare when it holds only plain characters, else single-quoted.
fn posix_quote(arg: &str) -> String {
    let safe = !arg.is_empty() && arg.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./:=@%+,".contains(&b));
    if safe { arg.to_string() } else { format!("'{}'", arg.replace('\'', "'\\''")) }
}

/// An argument that stays one, unchanged, in every shell of `shells` and in the POSIX shell beside
/// them: bare when it holds only characters no shell treats specially, else double-quoted when it
/// holds none of the characters one of them expands inside double quotes (`$` and `` ` `` in
/// PowerShell and bash, `%` and `!` in cmd.exe, `"` and `\` before it anywhere); else (or where
/// no quote may be written: `quotes` false) `None`.
fn windows_quote(arg: &str, shells: &[WindowsShell], quotes: bool) -> Option<String> {
    let bare = !arg.is_empty() && arg.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./:=@+,".contains(&b));
    if bare {
        return Some(arg.to_string());
    }
    if !quotes {
        return None;
    }
    let special = |c: char| {
        matches!(c, '"' | '$' | '`' | '\n' | '\r')
            || (shells.contains(&WindowsShell::Cmd) && matches!(c, '%' | '!' | '^'))
            || (shells.contains(&WindowsShell::PowerShell) && matches!(c, '\u{201c}' | '\u{201d}' | '\u{201e}'))
    };
    (!arg.chars().any(special) && !arg.ends_with('\\')).then(|| format!("\"{arg}\""))
}

#[cfg(test)]
mod tests {
    use super::{posix_quote, windows_quote};
    use crate::hosts::WindowsShell::{Cmd, PowerShell};

    #[test]
    fn arguments_are_quoted_only_when_needed() {
        assert_eq!(posix_quote("--host"), "--host");
        assert_eq!(posix_quote("two words"), "'two words'");
        assert_eq!(posix_quote("it's"), "'it'\\''s'");
        assert_eq!(posix_quote("$HOME"), "'$HOME'");
        assert_eq!(posix_quote(""), "''");
    }

    #[test]
    fn a_windows_argument_is_one_argument_in_every_shell_or_refused() {
        assert_eq!(windows_quote("--host", &[Cmd, PowerShell], true).as_deref(), Some("--host"));
        assert_eq!(windows_quote("two words", &[Cmd, PowerShell], true).as_deref(), Some("\"two words\""));
        assert_eq!(windows_quote("it's", &[Cmd, PowerShell], true).as_deref(), Some("\"it's\""));
        assert_eq!(windows_quote("", &[PowerShell], true).as_deref(), Some("\"\""));
        assert_eq!(windows_quote("$HOME", &[PowerShell], true), None);
        assert_eq!(windows_quote("100%", &[Cmd], true), None);
        assert_eq!(windows_quote("100%", &[PowerShell], true).as_deref(), Some("\"100%\""));
        assert_eq!(windows_quote("say \"hi\"", &[Cmd], true), None);
        assert_eq!(windows_quote("C:\\dir\\", &[Cmd], true), None);
    }
}
