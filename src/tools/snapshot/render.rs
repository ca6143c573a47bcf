//! What a snapshot holds, and its text form: readable, stable, redacted, and parseable back so that
//! a change can be summarised by meaning ("claude PreToolUse matcher: A → B"), not only by lines.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

/// Everything one host reads from one bundle's artifact.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SnapshotData {
    pub plugin: String,
    pub target: String,
    /// Artifact path → JSON of the host's manifest and hook document.
    pub documents: BTreeMap<String, Value>,
    /// Artifact path → text of each file of the plugin's skills, commands, agents and context file
    /// the host reads (each line ending in a newline).
    pub parts: BTreeMap<String, String>,
    /// Artifact path → what a host that runs a file per event (Cline CLI) runs there: the native
    /// event and the SHA-256 of the file, so a change of which events run or of the file shows.
    pub hook_files: BTreeMap<String, String>,
    /// One line per simulatable hook (name, events, matcher, timeout, wrapper).
    pub index: Vec<String>,
    /// (hook name, case) → the wrapper's answer to that recorded input.
    pub answers: BTreeMap<(String, String), Answer>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    pub stdin: String,
    pub exit: String,
    pub stdout: String,
    /// Only kept when the wrapper failed: it says why.
    pub stderr: Option<String>,
    /// What the hook wrote to the file the host reads back (`CLAUDE_ENV_FILE`), as `VARIABLE: "text"`
    /// (a JSON string); only kept when it wrote something.
    pub wrote: Option<String>,
}

const DOCUMENT: &str = "== file ";
const INDEX: &str = "== hook index";
const HOOK_FILE: &str = "== hook file ";
const PART: &str = "== part ";
/// How each line of a part file is written, so that no line of it reads as a section.
const PART_LINE: &str = "| ";
const ANSWER: &str = "== answer ";

/// The snapshot's text. Sections start with `== `; JSON is pretty-printed with sorted keys.
pub fn render(data: &SnapshotData) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# agent-bundle snapshot of plugin `{}` for {}", data.plugin, data.target);
    let _ =
        writeln!(out, "# What the host reads. Review changes with `cargo agent-bundle snapshot review`; do not edit.");
    for (path, document) in &data.documents {
        let _ = writeln!(out, "\n{DOCUMENT}{path}");
        let _ = writeln!(out, "{}", crate::vocabulary::json::pretty(document));
    }
    for (path, text) in &data.parts {
        let _ = writeln!(out, "\n{PART}{path}");
        for line in text.lines() {
            // An empty line is a bare `|`, with no trailing space.
            let _ = writeln!(
                out,
                "{}",
                if line.is_empty() { PART_LINE.trim_end().to_string() } else { format!("{PART_LINE}{line}") }
            );
        }
    }
    for (path, line) in &data.hook_files {
        let _ = writeln!(out, "\n{HOOK_FILE}{path}\n{line}");
    }
    let _ = writeln!(out, "\n{INDEX}");
    for line in &data.index {
        let _ = writeln!(out, "{line}");
    }
    for ((hook, case), answer) in &data.answers {
        out.push('\n');
        out.push_str(&render_answer(hook, case, answer));
    }
    out
}

/// One recorded input's answer section, as the snapshot holds it.
pub fn render_answer(hook: &str, case: &str, answer: &Answer) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{ANSWER}{hook} / {case}");
    let _ = writeln!(out, "stdin  {}", answer.stdin);
    let _ = writeln!(out, "exit   {}", answer.exit);
    let _ = writeln!(out, "stdout {}", if answer.stdout.is_empty() { "(empty)" } else { &answer.stdout });
    if let Some(stderr) = &answer.stderr {
        let _ = writeln!(out, "stderr {stderr}");
    }
    if let Some(wrote) = &answer.wrote {
        let _ = writeln!(out, "wrote  {wrote}");
    }
    out
}

/// Reads a snapshot's text back (best effort: a hand-edited file yields what can be recognised).
pub fn parse(text: &str) -> SnapshotData {
    let mut data = SnapshotData::default();
    if let Some(header) = text.lines().next()
        && let Some(rest) = header.strip_prefix("# agent-bundle snapshot of plugin `")
        && let Some((plugin, target)) = rest.split_once("` for ")
    {
        data.plugin = plugin.to_string();
        data.target = target.to_string();
    }
    let mut sections: Vec<(&str, Vec<&str>)> = Vec::new();
    for line in text.lines() {
        if line.starts_with("== ") {
            sections.push((line, Vec::new()));
        } else if let Some((_, body)) = sections.last_mut() {
            body.push(line);
        }
    }
    for (header, body) in sections {
        let body_text = body.join("\n");
        if let Some(path) = header.strip_prefix(DOCUMENT) {
            if let Ok(value) = serde_json::from_str(body_text.trim()) {
                data.documents.insert(path.to_string(), value);
            }
        } else if let Some(path) = header.strip_prefix(PART) {
            let lines = body.iter().filter(|l| l.starts_with('|')).map(|l| l.strip_prefix(PART_LINE).unwrap_or(""));
            data.parts.insert(path.to_string(), lines.map(|l| format!("{l}\n")).collect());
        } else if let Some(path) = header.strip_prefix(HOOK_FILE) {
            let line = body.iter().find(|l| !l.trim().is_empty()).map_or(String::new(), |l| l.to_string());
            data.hook_files.insert(path.to_string(), line);
        } else if header == INDEX {
            data.index = body.iter().filter(|l| !l.trim().is_empty()).map(|l| l.to_string()).collect();
        } else if let Some(rest) = header.strip_prefix(ANSWER) {
            let Some((hook, case)) = rest.split_once(" / ") else { continue };
            let mut answer = Answer::default();
            for line in body {
                if let Some(v) = line.strip_prefix("stdin  ") {
                    answer.stdin = v.to_string();
                } else if let Some(v) = line.strip_prefix("exit   ") {
                    answer.exit = v.to_string();
                } else if let Some(v) = line.strip_prefix("stdout ") {
                    answer.stdout = if v == "(empty)" { String::new() } else { v.to_string() };
                } else if let Some(v) = line.strip_prefix("stderr ") {
                    answer.stderr = Some(v.to_string());
                } else if let Some(v) = line.strip_prefix("wrote  ") {
                    answer.wrote = Some(v.to_string());
                }
            }
            data.answers.insert((hook.to_string(), case.to_string()), answer);
        }
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips() {
        let mut data = SnapshotData { plugin: "p".into(), target: "claude".into(), ..Default::default() };
        data.documents.insert("hooks/hooks.json".into(), serde_json::json!({ "hooks": { "Stop": [] } }));
        data.index.push("stop-x-1  stop -> Stop".into());
        data.hook_files.insert("cline/PreToolUse.mjs".into(), "runs tool_call; sha256 0123".into());
        data.parts.insert("skills/a/SKILL.md".into(), "---\nname: a\n---\n\n== not a section\n".into());
        data.answers.insert(
            ("stop-x-1".into(), "case".into()),
            Answer {
                stdin: "{}".into(),
                exit: "1".into(),
                stdout: String::new(),
                stderr: Some("boom".into()),
                wrote: Some("CLAUDE_ENV_FILE: \"export A=1\\n\"".into()),
            },
        );
        assert_eq!(parse(&render(&data)), data);
    }
}
