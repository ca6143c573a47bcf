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
            let (line, start, underlined) = excerpt(line, start, underlined);
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

/// The longest source line shown whole; of a longer one (minified code, a generated config) a
/// window around the label is shown, marked with `…` where it is cut.
const MAX_SHOWN_CHARS: usize = 160;

/// The part of `line` to show for a label `underlined` characters long from character `start`, and
/// where the label starts and how long it is in that part.
fn excerpt(line: &str, start: usize, underlined: usize) -> (String, usize, usize) {
    let length = line.chars().count();
    if length <= MAX_SHOWN_CHARS {
        return (line.to_string(), start, underlined);
    }
    const BEFORE: usize = 40;
    let from = start.saturating_sub(BEFORE).min(length.saturating_sub(MAX_SHOWN_CHARS));
    let to = (from + MAX_SHOWN_CHARS).min(length);
    let mut shown: String = line.chars().skip(from).take(to - from).collect();
    let lead = usize::from(from > 0);
    if from > 0 {
        shown.insert(0, '…');
    }
    if to < length {
        shown.push('…');
    }
    let visible = (start + underlined).min(to).saturating_sub(start).max(1);
    (shown, start - from + lead, visible)
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

#[cfg(test)]
mod tests {
    use super::excerpt;

    #[test]
    fn a_long_line_is_shown_as_a_window_around_its_label() {
        let short = "const x = 1;";
        assert_eq!(excerpt(short, 6, 1), (short.to_string(), 6, 1));
        let long = format!("{}X{}", "a".repeat(5000), "b".repeat(5000));
        let (shown, start, underlined) = excerpt(&long, 5000, 3);
        assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert_eq!(shown.chars().nth(start), Some('X'));
        assert_eq!(underlined, 3);
        assert!(shown.chars().count() <= 162);
        // At the end of a long line the window ends with it; a label running past it is cut.
        let (shown, start, underlined) = excerpt(&long, 10_000, 50);
        assert!(shown.starts_with('…') && !shown.ends_with('…'));
        assert_eq!(shown.chars().nth(start), Some('b'));
        assert_eq!(underlined, 1);
        let (shown, start, _) = excerpt(&long, 10, 1);
        assert!(!shown.starts_with('…') && shown.ends_with('…'));
        assert_eq!(start, 10);
    }
}
