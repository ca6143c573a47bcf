//! Rendering diagnostics for people (rustc-style, with the source line and a caret) and for
//! machines (one JSON object per diagnostic).

use std::fmt::Write as _;

use super::Diagnostic;
use crate::vocabulary::source::SourceFile;

/// Renders one diagnostic the way `rustc` and `just` do. `sources` gives the text of files that
/// labels point into; a label into a file not given is printed as a bare location.
pub fn render_human(diagnostic: &Diagnostic, sources: &[&SourceFile]) -> String {
    let mut out = String::new();
    let _ = write!(out, "{}[{}]: {}", diagnostic.severity.as_str(), diagnostic.code, diagnostic.message);
    if let Some(target) = diagnostic.target {
        let _ = write!(out, " (target {})", target.name());
    }
    out.push('\n');

    let gutter = diagnostic.labels.iter().map(|label| label.location.line.to_string().len()).max().unwrap_or(1);
    let pad = " ".repeat(gutter);
    for (index, label) in diagnostic.labels.iter().enumerate() {
        let location = &label.location;
        let arrow = if index == 0 { "-->" } else { ":::" };
        let _ = writeln!(out, "{pad}{arrow} {location}");
        let source = sources.iter().find(|s| s.path() == location.file);
        if let Some(source) = source {
            let line = source.line_text(location.line);
            let start = (location.column - 1) as usize;
            let byte_len = (location.span.end - location.span.start) as usize;
            let offset = source.text.len().min(location.span.start as usize);
            let underlined =
                source.text[offset..].get(..byte_len).unwrap_or("").lines().next().unwrap_or("").chars().count().max(1);
            let _ = writeln!(out, "{pad} |");
            let _ = writeln!(out, "{:>gutter$} | {}", location.line, line);
            let carets = if index == 0 { "^" } else { "-" }.repeat(underlined);
            let _ = writeln!(out, "{pad} | {}{} {}", " ".repeat(start), carets, label.message);
        }
    }
    if diagnostic.hint.is_some() || !diagnostic.notes.is_empty() {
        if !diagnostic.labels.is_empty() {
            let _ = writeln!(out, "{pad} |");
        }
        for note in &diagnostic.notes {
            let _ = writeln!(out, "{pad} = note: {note}");
        }
        if let Some(hint) = &diagnostic.hint {
            let _ = writeln!(out, "{pad} = hint: {hint}");
        }
    }
    out
}

/// Renders one diagnostic as a single line of JSON with stable key order.
pub fn render_json(diagnostic: &Diagnostic) -> String {
    crate::vocabulary::json::compact(&to_json_value(diagnostic))
}

/// The JSON form of a diagnostic: its fields, the original's check name when it had one, and the
/// primary location flattened to `file`, `line`, `column` for tools that read only those.
pub fn to_json_value(diagnostic: &Diagnostic) -> serde_json::Value {
    let mut value = serde_json::to_value(diagnostic).expect("diagnostics serialise");
    if let Some(original) = diagnostic.code.original() {
        value["original"] = serde_json::Value::String(original.to_string());
    }
    if let Some(location) = diagnostic.primary_location() {
        value["file"] = serde_json::Value::String(location.file.to_string());
        value["line"] = location.line.into();
        value["column"] = location.column.into();
    }
    value
}
