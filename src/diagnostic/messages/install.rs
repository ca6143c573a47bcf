//! Installing built plugins: `install`, `uninstall`, `doctor` and the receipt.

use camino::Utf8Path;

use super::{list, target_names};
use crate::diagnostic::{Code, Diagnostic};
use crate::vocabulary::target::Target;

pub fn install_no_artifact(dir: &Utf8Path, detail: &str) -> Diagnostic {
    Diagnostic::new(Code::InstallArtifactInvalid, format!("`{dir}` is not a built artifact that verifies: {detail}"))
        .hint("build it first (`cargo agent-bundle build`), and point `--artifact` at the folder the build wrote")
}

pub fn install_host_not_built(host: Target, dir: &Utf8Path, built: &[Target]) -> Diagnostic {
    Diagnostic::new(Code::InstallHostUnavailable, format!("`{dir}` is not built for {host}"))
        .note(format!("it is built for {}", target_names(built)))
        .hint(format!("add `{host}` to the config's targets and build again, or leave `--host {host}` out"))
}

pub fn install_host_unsupported(host: Target, reason: &str) -> Diagnostic {
    Diagnostic::new(Code::InstallHostUnavailable, format!("agent-bundle does not install for {host}"))
        .note(reason.to_string())
        .hint(format!("leave `--host {host}` out"))
}

pub fn install_scope_unsupported(host: Target, scope: &str, scopes: &[String]) -> Diagnostic {
    Diagnostic::new(Code::InstallHostUnavailable, format!("{host} has no `{scope}` scope for plugins"))
        .note(format!("{host} installs for {}", list(scopes)))
        .hint(format!("use `--scope {}` for {host}", scopes[0]))
}

pub fn install_program_missing(host: Target, program: &str, variable: &str) -> Diagnostic {
    Diagnostic::new(Code::InstallHostUnavailable, format!("`{program}` ({host}) is not on PATH"))
        .note(format!("{host} registers plugins through its own command line"))
        .hint(format!("install {host}, or set {variable} to the program's path, or leave `--host {host}` out"))
}

pub fn install_no_host(dir: &Utf8Path, skipped: &[(Target, String)]) -> Diagnostic {
    let why: Vec<String> = skipped.iter().map(|(t, r)| format!("{t}: {r}")).collect();
    Diagnostic::new(Code::InstallHostUnavailable, format!("no host `{dir}` is built for can be installed for here"))
        .note(why.join("; "))
        .hint("install a host's program (or name it with its AGENT_BUNDLE_<HOST>_PROGRAM variable), or pick hosts with `--host`")
}

pub fn install_not_owned(path: &Utf8Path, receipt: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::InstallPathNotOwned, format!("`{path}` exists and agent-bundle did not install it"))
        .note(format!("install writes only what it owns (its receipt: `{receipt}`); nothing was changed"))
        .hint("move that file or folder away if it is an old copy of this plugin, then install again")
}

pub fn install_command_failed(
    host: Target,
    program: &Utf8Path,
    args: &[String],
    code: Option<i32>,
    output: &str,
) -> Diagnostic {
    let code = code.map_or_else(|| "no exit code (killed or timed out)".to_string(), |c| format!("exit {c}"));
    let output = output.trim();
    let tail: String = output.chars().rev().take(600).collect::<Vec<_>>().into_iter().rev().collect();
    Diagnostic::new(Code::HostCommandFailed, format!("`{program} {}` ({host}) failed: {code}", args.join(" ")))
        .note(if tail.is_empty() { "it printed nothing".to_string() } else { format!("it printed: {tail}") })
        .hint(format!("run the command yourself to see why; `cargo agent-bundle doctor` shows what {host} has now"))
}

pub fn install_write_failed(path: &Utf8Path, error: &std::io::Error) -> Diagnostic {
    Diagnostic::new(Code::InstallWriteFailed, format!("cannot write `{path}`: {error}"))
        .hint("check that the folder is writable")
}

pub fn receipt_missing(plugin: &str, path: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::ReceiptMissing, format!("`{plugin}` has no install receipt (`{path}`)"))
        .note("uninstall and doctor act only on what `cargo agent-bundle install` recorded")
        .hint(
            "check the plugin's name and `--scope`, or set AGENT_BUNDLE_HOME to the data folder it was installed with",
        )
}

pub fn receipt_unreadable(path: &Utf8Path, detail: &str) -> Diagnostic {
    Diagnostic::new(Code::ReceiptInvalid, format!("the install receipt `{path}` cannot be used: {detail}"))
        .hint("it is not one agent-bundle wrote for this plugin; remove what it names by hand, then the receipt")
}
