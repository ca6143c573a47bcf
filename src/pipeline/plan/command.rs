//! What a host's document runs for a hook: the wrapper file and its command line, decided here once
//! per hook and host, so the documents, the artifact index, `inspect` and `simulate` agree.

use crate::pipeline::normalise::{Handler, Hook};
use crate::vocabulary::target::Target;

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

/// The command a host runs for a hook: node on its wrapper, or on a prebuilt file with its arguments,
/// named from the host's root token (its plugin folder: `folder` when the host has its own).
pub fn host_command(hook: &Hook, root_token: &str, wrapper: Option<&str>, folder: Option<&str>) -> String {
    let within = |path: &str| match folder {
        Some(folder) => path.strip_prefix(folder).and_then(|p| p.strip_prefix('/')).unwrap_or(path).to_string(),
        None => path.to_string(),
    };
    match (&hook.handler, wrapper) {
        (Handler::Module { .. }, Some(wrapper)) => node_command(root_token, &within(wrapper), &[]),
        (Handler::Prebuilt { artifact_path, .. }, _) => node_command(root_token, artifact_path, &hook.args),
        (Handler::Module { .. }, None) => unreachable!("a handler module always has a wrapper"),
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
    use super::shell_quote;

    #[test]
    fn arguments_are_quoted_only_when_needed() {
        assert_eq!(shell_quote("--host"), "--host");
        assert_eq!(shell_quote("two words"), "'two words'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote("$HOME"), "'$HOME'");
        assert_eq!(shell_quote(""), "''");
    }
}
