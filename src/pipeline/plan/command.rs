//! What a host's document runs for a hook: the wrapper file and its command line, decided here once
//! per hook and host, so the documents, the artifact index, `inspect` and `simulate` agree.

use crate::hosts::CommandShell;
use crate::pipeline::normalise::{Handler, Hook};
use crate::vocabulary::target::Target;

/// The descriptor on which a wrapper's command hands the wrapper the host's stdout, its answer
/// channel: `3>&1 1>&2` makes fd 3 the host's stdout and fd 1 the host's stderr for the whole
/// process, so what the handler, its workers or its children write to fd 1 (`console.log`,
/// `fs.writeSync(1)`, `/dev/stdout`, `/proc/self/fd/1`, inherited stdio) goes to stderr. The
/// runtime reads it from the wrapper's contract.
pub const ANSWER_FD: u32 = 3;

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

/// The command a host runs for a hook: node on its wrapper, with the answer channel handed over on
/// [`ANSWER_FD`] through the host's shell, or on a prebuilt file with its arguments (which answers on
/// its own stdout), named from the host's root token (its plugin folder: `folder` when the host has
/// its own).
pub fn host_command(
    hook: &Hook,
    root_token: &str,
    wrapper: Option<&str>,
    folder: Option<&str>,
    shell: CommandShell,
) -> String {
    let within = |path: &str| match folder {
        Some(folder) => path.strip_prefix(folder).and_then(|p| p.strip_prefix('/')).unwrap_or(path).to_string(),
        None => path.to_string(),
    };
    match (&hook.handler, wrapper) {
        (Handler::Module { .. }, Some(wrapper)) => wrapper_command(root_token, &within(wrapper), shell),
        (Handler::Prebuilt { artifact_path, .. }, _) => node_command(root_token, artifact_path, &hook.args),
        (Handler::Module { .. }, None) => unreachable!("a handler module always has a wrapper"),
    }
}

/// `node "<root>/<wrapper>" 3>&1 1>&2` for a host whose shell is bash; where the host's shell need
/// not be a POSIX one, the same redirections made by `sh` (whose `exec` leaves no shell process
/// behind): `sh -c 'exec node "$1" 3>&1 1>&2' sh "<root>/<wrapper>"`, which any shell that runs the
/// plain command runs too.
fn wrapper_command(root_token: &str, file: &str, shell: CommandShell) -> String {
    let handover = format!("{ANSWER_FD}>&1 1>&2");
    match shell {
        CommandShell::Bash => format!("node \"{root_token}/{file}\" {handover}"),
        CommandShell::AnyShell => format!("sh -c 'exec node \"$1\" {handover}' sh \"{root_token}/{file}\""),
        // The host's entry module imports the wrapper: the document names it from the module's folder.
        CommandShell::InProcess => format!("{root_token}/{file}"),
    }
}

/// A command line that runs `file` (artifact-relative) under node, with `args` quoted for a POSIX
/// shell (hosts run commands through one).
fn node_command(root_token: &str, file: &str, args: &[String]) -> String {
    let mut command = format!("node \"{root_token}/{file}\"");
    for arg in args {
        command.push(' ');
        command.push_str(&shell_quote(arg));
    }
    command
}

fn shell_quote(arg: &str) -> String {
    let safe = !arg.is_empty() && arg.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./:=@%+,".contains(&b));
    if safe { arg.to_string() } else { format!("'{}'", arg.replace('\'', "'\\''")) }
}

#[cfg(test)]
mod tests {
    use super::{shell_quote, wrapper_command};
    use crate::hosts::CommandShell;

    #[test]
    fn a_wrappers_command_hands_over_the_answer_channel_in_the_hosts_shell() {
        assert_eq!(
            wrapper_command("${CLAUDE_PLUGIN_ROOT}", "hooks/a.mjs", CommandShell::Bash),
            r#"node "${CLAUDE_PLUGIN_ROOT}/hooks/a.mjs" 3>&1 1>&2"#
        );
        assert_eq!(
            wrapper_command("${PLUGIN_ROOT}", "hooks/a.mjs", CommandShell::AnyShell),
            r#"sh -c 'exec node "$1" 3>&1 1>&2' sh "${PLUGIN_ROOT}/hooks/a.mjs""#
        );
    }

    #[test]
    fn arguments_are_quoted_only_when_needed() {
        assert_eq!(shell_quote("--host"), "--host");
        assert_eq!(shell_quote("two words"), "'two words'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote("$HOME"), "'$HOME'");
        assert_eq!(shell_quote(""), "''");
    }
}
