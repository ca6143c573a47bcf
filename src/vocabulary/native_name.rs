//! Native selector names (D13): a host's tool name in which `*` and `.*` stand for any run of
//! characters (`mcp__github__*` and `mcp__github__.*` are the same prefix pattern); every other
//! character stands for itself. Read here once, for normalising (which judges a name) and planning
//! (which renders it into a matcher).

/// One part of a native selector's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamePart<'a> {
    /// Characters that stand for themselves.
    Literal(&'a str),
    /// `*` or `.*` (or several in a row): any run of characters, none included.
    Wildcard,
}

/// A native selector's name read as written: `*` and `.*` are the wildcard, a run of them one wildcard,
/// anything else literal text.
pub fn name_parts(name: &str) -> Vec<NamePart<'_>> {
    let bytes = name.as_bytes();
    let mut parts = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        let width = match (bytes[i], bytes.get(i + 1)) {
            (b'*', _) => 1,
            (b'.', Some(b'*')) => 2,
            _ => 0,
        };
        if width == 0 {
            i += 1;
            continue;
        }
        if start < i {
            parts.push(NamePart::Literal(&name[start..i]));
        }
        if parts.last() != Some(&NamePart::Wildcard) {
            parts.push(NamePart::Wildcard);
        }
        i += width;
        start = i;
    }
    if start < bytes.len() {
        parts.push(NamePart::Literal(&name[start..]));
    }
    parts
}

/// Whether a native selector's name is nothing but the wildcard (`*`, `.*`, `**`): every tool of its host.
pub fn only_wildcard(name: &str) -> bool {
    name_parts(name) == [NamePart::Wildcard]
}

/// The characters a native selector's name may not hold: regex syntax beyond the wildcard, and the
/// separators of a list of names (`,` and white space, which Claude Code's exact-name matchers split on).
/// No host reports a tool name with them, so the escaped name would never match and the hook would be
/// dead.
pub fn regex_characters(name: &str) -> Vec<char> {
    let mut found: Vec<char> = Vec::new();
    for c in name.chars().filter(|c| "\\^$|?+()[]{},".contains(*c) || c.is_whitespace()) {
        if !found.contains(&c) {
            found.push(c);
        }
    }
    found
}

/// What the author of a name with regex or list characters most likely meant, when a rewrite says it
/// without them: each name of a list (`Bash|Read`, `^(Write|Edit)$`, `Edit, Write`), or the one name or
/// pattern (`^Bash$` → `Bash`, `mcp__github__.+` → `mcp__github__*`, `mcp__demo\.echo` →
/// `mcp__demo.echo`). Empty when no such rewrite is sure (`Ba?h`, `[BR]ead`, `.+` alone).
pub fn meant_names(name: &str) -> Vec<String> {
    let mut core = name.trim();
    core = core.strip_prefix('^').unwrap_or(core);
    if !core.ends_with("\\$") {
        core = core.strip_suffix('$').unwrap_or(core);
    }
    if let Some(inner) = core.strip_prefix("(?:").or_else(|| core.strip_prefix('(')).and_then(|c| c.strip_suffix(')')) {
        core = inner;
    }
    let rewrite = |piece: &str| -> Option<String> {
        let mut out = String::new();
        let mut chars = piece.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                // An escaped character is that character, unless a `*` after it would make a wildcard of it.
                '\\' => {
                    let escaped = chars.next()?;
                    if escaped == '.' && chars.peek() == Some(&'*') {
                        return None;
                    }
                    out.push(escaped);
                }
                '.' if chars.peek() == Some(&'+') => {
                    chars.next();
                    out.push('*');
                }
                _ => out.push(c),
            }
        }
        (!out.is_empty() && regex_characters(&out).is_empty() && !only_wildcard(&out)).then_some(out)
    };
    let pieces: Vec<&str> =
        core.split(|c: char| c == '|' || c == ',' || c.is_whitespace()).filter(|p| !p.is_empty()).collect();
    let mut meant = Vec::new();
    for piece in pieces {
        match rewrite(piece) {
            Some(name) if !meant.contains(&name) => meant.push(name),
            Some(_) => {}
            None => return Vec::new(),
        }
    }
    meant
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn star_and_dot_star_are_the_one_wildcard_and_other_dots_are_literal() {
        use NamePart::{Literal, Wildcard};
        assert_eq!(name_parts("Bash"), [Literal("Bash")]);
        assert_eq!(name_parts("mcp__github__*"), [Literal("mcp__github__"), Wildcard]);
        assert_eq!(name_parts("mcp__github__.*"), [Literal("mcp__github__"), Wildcard]);
        assert_eq!(name_parts("mcp__*__create_issue"), [Literal("mcp__"), Wildcard, Literal("__create_issue")]);
        assert_eq!(name_parts("mcp__demo.echo"), [Literal("mcp__demo.echo")]);
        assert_eq!(name_parts("a..*"), [Literal("a."), Wildcard]);
        assert_eq!(name_parts("*.*"), [Wildcard]);
        assert_eq!(name_parts("**x.*.*"), [Wildcard, Literal("x"), Wildcard]);
        assert_eq!(name_parts("."), [Literal(".")]);
        assert!(only_wildcard("*") && only_wildcard(".*") && only_wildcard("**") && only_wildcard("*.*"));
        assert!(!only_wildcard("*.") && !only_wildcard("x*") && !only_wildcard("."));
    }

    #[test]
    fn regex_and_list_characters_are_found_once_each() {
        assert_eq!(regex_characters("Bash|Read"), vec!['|']);
        assert_eq!(regex_characters("mcp__.+"), vec!['+']);
        assert_eq!(regex_characters("^(Edit|Write)$"), vec!['^', '(', '|', ')', '$']);
        assert_eq!(regex_characters("Edit, Write"), vec![',', ' ']);
        assert!(regex_characters("mcp__github__*").is_empty());
        assert!(regex_characters("mcp__github__.*").is_empty());
    }

    #[test]
    fn regex_habits_are_rewritten_into_the_names_they_meant() {
        let meant = |name: &str| meant_names(name);
        assert_eq!(meant("Bash|Read"), ["Bash", "Read"]);
        assert_eq!(meant("^(Write|Edit)$"), ["Write", "Edit"]);
        assert_eq!(meant("(?:Write|Edit)"), ["Write", "Edit"]);
        assert_eq!(meant("Edit, Write"), ["Edit", "Write"]);
        assert_eq!(meant("^Bash$"), ["Bash"]);
        assert_eq!(meant("mcp__github__.+"), ["mcp__github__*"]);
        assert_eq!(meant("mcp__demo\\.echo"), ["mcp__demo.echo"]);
        assert!(meant("Ba?h").is_empty());
        assert!(meant("[BR]ead").is_empty());
        assert!(meant(".+").is_empty());
        assert!(meant("^.*$").is_empty());
        assert!(meant("mcp__demo\\.*").is_empty());
    }
}
