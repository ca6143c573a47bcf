//! Tool matchers (D5 in docs/decisions.md): one anchored regex per hook and host, `^(?:a|b|…)$`, so that it
//! means the same thing on every host whether the host searches unanchored (Claude, Codex) or not.

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

/// The regex alternative for a native selector's name: the name itself, with each `*` standing for
/// any run of characters (`mcp__github__*` → `mcp__github__.*`, a server-scoped MCP matcher).
pub fn native_alternative(name: &str) -> String {
    name.split('*').map(escape_regex).collect::<Vec<_>>().join(".*")
}

/// The regex characters a native selector's name may not hold (`*` is its one wildcard): with them,
/// the escaped name would never equal a real tool name, and the hook would be dead.
pub fn regex_characters(name: &str) -> Vec<char> {
    let mut found: Vec<char> = name.chars().filter(|c| "\\^$|?+()[]{}".contains(*c)).collect();
    found.dedup();
    found
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
        assert_eq!(regex_characters("Bash|Read"), vec!['|']);
        assert_eq!(regex_characters("mcp__.+"), vec!['+']);
        assert!(regex_characters("mcp__github__*").is_empty());
    }
}
