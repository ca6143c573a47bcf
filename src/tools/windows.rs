//! Whether a host's hook document runs on Windows (D17): each entry read back by the host's table must
//! carry the Windows form that table asks for, and that form must hold nothing a shell the host uses
//! there cannot parse or run. `doctor` asks it of an installed plugin; the tests ask it of every
//! artifact they build.

use camino::Utf8Path;
use serde_json::Value;

use crate::hosts::{HookSurface, WindowsForm, WindowsShell};
use crate::pipeline::emit::{WrittenEntry, read_hook_document};
use crate::vocabulary::target::Target;

/// An entry of a host's hook document that would not run on Windows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub host: Target,
    /// The entry's native event.
    pub event: String,
    /// What the entry runs, as a line.
    pub runs: String,
    /// Why it would not run there.
    pub why: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} entry `{}`: {}", self.host, self.event, self.runs, self.why)
    }
}

/// What a host runs for one hook on Windows, read from the artifact's hook document, with the host's
/// root token replaced by the plugin folder's Windows path (as the host replaces it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invocation {
    /// A command line, run by one of `shells`. `quotes_escaped`: the host hands it to cmd.exe with
    /// every `"` escaped as `\"` (Qwen Code's spawn), which the form is written for.
    Shell { shells: Vec<WindowsShell>, command: String, quotes_escaped: bool },
    /// A program started with its arguments, through no shell.
    Exec { program: String, args: Vec<String> },
}

/// What `row`'s host runs for it on Windows, with its root token replaced by `root` (the Windows path
/// of the host's plugin folder: the artifact, or its folder for a host that has one).
pub fn invocation(artifact: &Utf8Path, row: &crate::artifact::IndexRow, root: &str) -> Result<Invocation, String> {
    let surface = crate::hosts::table(row.host).hooks.as_ref().ok_or("the host has no hooks")?;
    let entry = crate::tools::simulate::written_entry(artifact, row).map_err(|e| e.to_string())?;
    let command = entry.command;
    match &surface.windows.form {
        WindowsForm::InProcess => Err(format!("{} runs hooks in its own process", row.host)),
        WindowsForm::Exec { .. } => Ok(Invocation::Exec {
            program: command.command,
            args: command.args.iter().map(|arg| arg.replace(&surface.root_token, root)).collect(),
        }),
        WindowsForm::OwnKey { key, root_token, shells } => {
            let windows = command.windows.ok_or_else(|| format!("the entry has no `{key}`"))?;
            Ok(Invocation::Shell {
                shells: shells.clone(),
                command: windows.command.replace(root_token.as_str(), root),
                quotes_escaped: false,
            })
        }
        WindowsForm::SameCommand { shells, quote_root } => Ok(Invocation::Shell {
            shells: shells.clone(),
            command: command.command.replace(&surface.root_token, root),
            quotes_escaped: !quote_root,
        }),
    }
}

/// Every entry of `target`'s hook document that would not run on Windows.
pub fn document_problems(target: Target, document: &Value, root: Option<&str>) -> Vec<Problem> {
    let Some(surface) = crate::hosts::table(target).hooks.as_ref() else { return Vec::new() };
    read_hook_document(surface, document)
        .into_iter()
        .filter_map(|entry| {
            let why = entry_problem(surface, &entry, root)?;
            Some(Problem { host: target, event: entry.native_event.clone(), runs: entry.command.to_string(), why })
        })
        .collect()
}

/// Every entry of every host document of a built artifact that would not run on Windows.
pub fn artifact_problems(artifact: &Utf8Path) -> Result<Vec<Problem>, String> {
    let manifest = crate::artifact::read_verified(artifact, &crate::io::RealDisk).map_err(|e| e.to_string())?;
    let mut found = Vec::new();
    for (target, host) in &manifest.hosts {
        let path = artifact.join(&host.document);
        let text = fs_err::read_to_string(&path).map_err(|e| e.to_string())?;
        let document: Value = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
        found.extend(document_problems(*target, &document, None));
    }
    Ok(found)
}

/// What keeps one entry from running on Windows, in words, or `None` when it runs. `root`: the folder
/// the host runs the plugin from, when known (an install), for the forms a root's characters break.
fn entry_problem(surface: &HookSurface, entry: &WrittenEntry, root: Option<&str>) -> Option<String> {
    let command = &entry.command;
    match &surface.windows.form {
        WindowsForm::InProcess => None,
        WindowsForm::Exec { args_key } => match command.args.is_empty() {
            true => Some(match posix_only(&command.command, &[WindowsShell::PowerShell]) {
                Some(found) => format!(
                    "its command line holds {found}, which PowerShell (where there is no Git Bash) cannot parse, and it has no `{args_key}` (the exec form, which runs through no shell)"
                ),
                None => format!(
                    "it has no `{args_key}`: its command line runs through Git Bash or PowerShell, whichever the machine has"
                ),
            }),
            false => shell_words(&command.command)
                .map(|found| format!("its program `{}` holds {found}, which no exec form can start", command.command)),
        },
        WindowsForm::OwnKey { key, shells, .. } => match &command.windows {
            None => Some(format!("it has no `{key}`, the command its host runs on Windows")),
            Some(windows) => posix_only(&windows.command, shells).map(|found| {
                format!("its `{key}` holds {found}, which {} cannot parse or run", WindowsShell::list(shells))
            }),
        },
        WindowsForm::SameCommand { shells, quote_root } => {
            if let Some(found) = posix_only(&command.command, shells) {
                return Some(format!(
                    "its command holds {found}, which {} cannot parse or run, and its host runs the same command on Windows",
                    WindowsShell::list(shells)
                ));
            }
            match root {
                Some(root) if !quote_root && root.contains(char::is_whitespace) => Some(format!(
                    "its host gives cmd.exe the command with every quote escaped, so the command names the plugin's root unquoted, and {root:?} holds a space"
                )),
                _ => None,
            }
        }
    }
}

/// The first construct of `command` that one of `shells` cannot parse, or cannot run without a POSIX
/// shell on the machine, named for a message.
pub fn posix_only(command: &str, shells: &[WindowsShell]) -> Option<&'static str> {
    let first = command.split_whitespace().next().unwrap_or_default();
    let windows_bash = shells.iter().all(|s| *s == WindowsShell::GitBash);
    if !windows_bash {
        if ["sh", "bash", "/bin/sh", "/bin/bash", "/usr/bin/env"].contains(&first) {
            return Some("a POSIX shell as its program (Windows has none without Git)");
        }
        if first == "exec" {
            return Some("`exec`, a POSIX shell's builtin");
        }
        if first.contains('=') && !first.starts_with('"') {
            return Some("a `NAME=value` prefix, a POSIX shell's way to set a variable");
        }
    }
    let powershell = shells.contains(&WindowsShell::PowerShell);
    let cmd = shells.contains(&WindowsShell::Cmd);
    let redirection_to_stderr = ["1>&2", " >&2", "\t>&2"].iter().any(|r| command.contains(r));
    if powershell && redirection_to_stderr {
        return Some("`1>&2` (in PowerShell, a parse error: the redirection is reserved)");
    }
    if (powershell || cmd) && has_fd_above_two(command) {
        return Some("a redirection of descriptor 3 or above (no Windows program is handed one)");
    }
    if powershell && (command.contains("&&") || command.contains("||")) {
        return Some("`&&` or `||` (Windows PowerShell 5.1 does not have them)");
    }
    if (powershell || cmd) && command.contains("<<") {
        return Some("a here-document (`<<`)");
    }
    if cmd && command.contains('\'') {
        return Some("single quotes (cmd.exe passes them on as part of the word)");
    }
    None
}

/// `N>&M` or `N>` with N of 3 or more: the POSIX handover of a descriptor.
fn has_fd_above_two(command: &str) -> bool {
    let bytes = command.as_bytes();
    bytes.windows(2).enumerate().any(|(at, pair)| {
        let starts_word = at == 0 || bytes[at - 1].is_ascii_whitespace();
        starts_word && pair[0].is_ascii_digit() && pair[0] >= b'3' && pair[1] == b'>'
    })
}

/// A program name that is a shell line rather than one program: spaces, quotes or operators.
fn shell_words(program: &str) -> Option<&'static str> {
    if program.is_empty() {
        return Some("nothing");
    }
    program.chars().any(|c| c.is_whitespace() || "\"'|&;<>".contains(c)).then_some("spaces, quotes or operators")
}

#[cfg(test)]
mod tests {
    use super::posix_only;
    use crate::hosts::WindowsShell::{Cmd, GitBash, PowerShell};

    #[test]
    fn the_posix_forms_main_emitted_are_caught_for_the_shells_that_cannot_take_them() {
        let claude = r#"node "${CLAUDE_PLUGIN_ROOT}/hooks/a.mjs" 3>&1 1>&2"#;
        assert!(posix_only(claude, &[PowerShell]).unwrap().contains("1>&2"));
        assert!(posix_only(claude, &[Cmd]).unwrap().contains("descriptor 3"));
        let codex = r#"sh -c 'exec node "$1" 3>&1 1>&2' sh "${PLUGIN_ROOT}/hooks/a.mjs""#;
        assert!(posix_only(codex, &[Cmd, PowerShell]).unwrap().contains("POSIX shell"));
        assert!(posix_only("exec node a.mjs", &[Cmd]).is_some());
        assert!(posix_only("FOO=1 node a.mjs", &[PowerShell]).is_some());
        assert!(posix_only("node a.mjs || true", &[PowerShell]).is_some());
        assert!(posix_only("node 'C:\\a.mjs'", &[Cmd, PowerShell]).is_some());
    }

    #[test]
    fn the_windows_forms_pass() {
        for (command, shells) in [
            (r#"node "${PLUGIN_ROOT}\hooks\a.codex.mjs" ; exit $LASTEXITCODE"#, &[Cmd, PowerShell][..]),
            (r#"node "${extensionPath}/hooks/a.gemini.mjs""#, &[PowerShell][..]),
            ("node ${CLAUDE_PLUGIN_ROOT}/hooks/a.qwen.mjs", &[Cmd, PowerShell, GitBash][..]),
            (r#"node "${PLUGIN_ROOT}/hooks/a.mjs" 3>&1 1>&2"#, &[GitBash][..]),
        ] {
            assert_eq!(posix_only(command, shells), None, "{command}");
        }
    }
}
