//! Tool matchers (D5 in docs/decisions.md): one anchored regex per hook and host, `^(?:a|b|…)$`, so that it
//! means the same thing on every host whether the host searches unanchored (Claude, Codex) or not.
//! A native selector's name ([`crate::vocabulary::native_name`]) becomes one alternative: its wildcard
//! `.*`, every other character escaped (`mcp__demo.echo` is that one name).

use crate::vocabulary::native_name::{NamePart, name_parts};

/// The matcher for a list of regex alternatives, or `None` (fire for every tool) when there are none.
/// Duplicate alternatives are dropped, keeping the first.
pub fn render_matcher(alternatives: &[String]) -> Option<String> {
    let mut unique: Vec<&str> = Vec::with_capacity(alternatives.len());
    for alternative in alternatives {
        if !unique.contains(&alternative.as_str()) {
            unique.push(alternative);
        }
    }
    if unique.is_empty() { None } else { Some(format!("^(?:{})$", unique.join("|"))) }
}

/// A rendered matcher's alternatives, the inverse of [`render_matcher`] (`^(?:a|b)$` → `a`, `b`; an
/// escaped `\|` stays in its alternative).
pub fn alternatives(matcher: &str) -> Vec<String> {
    let body = matcher.strip_prefix("^(?:").and_then(|m| m.strip_suffix(")$")).unwrap_or(matcher);
    let mut found = vec![String::new()];
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        let last = found.last_mut().expect("never empty");
        match c {
            '\\' => {
                last.push(c);
                last.extend(chars.next());
            }
            '|' => found.push(String::new()),
            _ => last.push(c),
        }
    }
    found
}

/// The regex alternative for a native selector's name: its literal text escaped, each wildcard `.*`
/// (`mcp__github__*` and `mcp__github__.*` → `mcp__github__.*`, a server-scoped MCP matcher;
/// `mcp__demo.echo` → `mcp__demo\.echo`).
pub fn native_alternative(name: &str) -> String {
    name_parts(name)
        .into_iter()
        .map(|part| match part {
            NamePart::Literal(text) => escape_regex(text),
            NamePart::Wildcard => ".*".to_string(),
        })
        .collect()
}

/// Escapes a literal tool name for use inside a regex (JavaScript and Rust `regex` agree on these).
pub fn escape_regex(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if "\\^$.|?*+()[]{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_anchored_alternations() {
        assert_eq!(render_matcher(&[]), None);
        assert_eq!(render_matcher(&["Bash".into()]).as_deref(), Some("^(?:Bash)$"));
        assert_eq!(
            render_matcher(&["Bash".into(), "PowerShell".into(), "Bash".into()]).as_deref(),
            Some("^(?:Bash|PowerShell)$")
        );
        assert_eq!(escape_regex("mcp__demo.echo"), "mcp__demo\\.echo");
        assert_eq!(native_alternative("mcp__github__*"), "mcp__github__.*");
        assert_eq!(native_alternative("mcp__demo.echo"), "mcp__demo\\.echo");
    }

    #[test]
    fn alternatives_read_back_what_render_matcher_wrote() {
        let names = ["Bash".to_string(), escape_regex("a|b.c"), native_alternative("mcp__github__*")];
        let rendered = render_matcher(&names).unwrap();
        assert_eq!(alternatives(&rendered), names);
    }

    #[test]
    fn wildcards_become_dot_star_and_other_dots_are_escaped() {
        assert_eq!(native_alternative("mcp__github__.*"), "mcp__github__.*");
        assert_eq!(native_alternative("mcp__*__create_issue"), "mcp__.*__create_issue");
        assert_eq!(native_alternative("Web.Search"), "Web\\.Search");
        assert_eq!(native_alternative("a..*"), "a\\..*");
    }
}
