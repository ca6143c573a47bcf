//! Opening a hook's declaration in the user's editor, on request from the page: `$VISUAL`, else
//! `$EDITOR`, else VS Code's `code`, at the declaration's line. The page names a hook; the file is
//! the one the bundle declares it in, inside the bundle root, never a path the page sends.

use std::process::{Command, Stdio};

use camino::Utf8Path;

/// Editors that take `-g file:line:column` (VS Code and its forks).
const GOTO_FLAG: &[&str] = &["code", "code-insiders", "codium", "cursor", "windsurf"];
/// Editors that take `file:line:column` as one argument.
const COLON_SUFFIX: &[&str] = &["subl", "zed", "hx", "helix", "idea", "webstorm"];

/// The program and arguments that open `file` at `line:column` with `editor` (a command line, as
/// `$EDITOR` holds it: `code --wait` splits on whitespace). Unknown editors get `+line file`, which
/// vi, vim, nvim, emacs, nano, micro and kak all read.
pub fn command_line(editor: Option<&str>, file: &Utf8Path, line: u32, column: u32) -> (String, Vec<String>) {
    let words: Vec<&str> = editor.map(|e| e.split_whitespace().collect()).unwrap_or_default();
    let (program, mut args) = match words.split_first() {
        Some((program, rest)) => (program.to_string(), rest.iter().map(|s| s.to_string()).collect()),
        None => ("code".to_string(), Vec::new()),
    };
    let name = Utf8Path::new(&program).file_name().unwrap_or(&program).to_string();
    if GOTO_FLAG.contains(&name.as_str()) {
        args.extend(["-g".to_string(), format!("{file}:{line}:{column}")]);
    } else if COLON_SUFFIX.contains(&name.as_str()) {
        args.push(format!("{file}:{line}:{column}"));
    } else {
        args.extend([format!("+{line}"), file.to_string()]);
    }
    (program, args)
}

/// Starts the editor without waiting for it; the command line as started.
pub fn open(file: &Utf8Path, line: u32, column: u32) -> Result<String, String> {
    let editor = std::env::var("VISUAL").ok().filter(|v| !v.trim().is_empty());
    let editor = editor.or_else(|| std::env::var("EDITOR").ok().filter(|v| !v.trim().is_empty()));
    let (program, args) = command_line(editor.as_deref(), file, line, column);
    let shown = std::iter::once(program.as_str()).chain(args.iter().map(String::as_str)).collect::<Vec<_>>().join(" ");
    let mut child = Command::new(&program)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| {
            format!(
                "cannot start `{program}` to open {file}:{line}: {e}; set EDITOR (or VISUAL) to your editor's command"
            )
        })?;
    // Reaped in the background, so no zombie is left once the editor exits.
    std::thread::spawn(move || child.wait());
    Ok(shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_editor_family_gets_its_own_goto_form() {
        let file = Utf8Path::new("/b/agent-bundle.config.ts");
        assert_eq!(command_line(None, file, 12, 5), ("code".into(), vec!["-g".into(), format!("{file}:12:5")]));
        assert_eq!(
            command_line(Some("/usr/bin/code --wait"), file, 3, 1),
            ("/usr/bin/code".into(), vec!["--wait".into(), "-g".into(), format!("{file}:3:1")])
        );
        assert_eq!(command_line(Some("vim"), file, 12, 5), ("vim".into(), vec!["+12".into(), file.to_string()]));
        assert_eq!(command_line(Some("subl"), file, 2, 4), ("subl".into(), vec![format!("{file}:2:4")]));
    }
}
