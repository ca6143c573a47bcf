//! The front matter of a skill, command or agent file: the `---` block of `key: value` lines at its
//! start, read far enough to know its keys and their one-line values (hosts read it as YAML; what
//! agent-bundle needs of it are `name` and `description`, and the body after it).

/// A file's front matter and body.
#[derive(Debug, PartialEq, Eq)]
pub struct FrontMatter<'a> {
    /// Each key with its value (quotes removed; a folded or literal block joined with spaces or
    /// newlines), in written order.
    pub fields: Vec<(&'a str, String)>,
    /// Each field's lines as written (its continuation lines included), in the same order.
    pub written: Vec<&'a str>,
    /// The text after the closing `---` line (the whole text when there is no front matter).
    pub body: &'a str,
    /// The 1-based line the body starts on.
    pub body_line: u32,
}

/// What is wrong with a front matter, and on which 1-based line.
#[derive(Debug, PartialEq, Eq)]
pub struct FrontMatterError {
    pub line: u32,
    pub what: String,
}

impl FrontMatter<'_> {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str())
    }
}

/// Reads `text`'s front matter, if it starts with a `---` line.
pub fn read(text: &str) -> Result<FrontMatter<'_>, FrontMatterError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let none = FrontMatter { fields: Vec::new(), written: Vec::new(), body: text, body_line: 1 };
    let Some(first) = lines.next() else { return Ok(none) };
    if first.trim_end() != "---" {
        return Ok(none);
    }
    // Where each field's lines start in `text`, and where the front matter's last line ends.
    let mut starts: Vec<usize> = Vec::new();
    let mut offset = first.len();
    let mut fields: Vec<(&str, String)> = Vec::new();
    // The block scalar being read: its key's index and whether it is literal (`|`) or folded (`>`).
    let mut block: Option<(usize, bool)> = None;
    for (index, line) in lines.enumerate() {
        let number = index as u32 + 2;
        let line_start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim_end() == "---" {
            for (_, value) in &mut fields {
                *value = value.trim_end().to_string();
            }
            let ends = starts.iter().skip(1).copied().chain([line_start]);
            let written = starts.iter().zip(ends).map(|(start, end)| &text[*start..end]).collect();
            return Ok(FrontMatter { fields, written, body: &text[offset..], body_line: number + 1 });
        }
        let indented = content.starts_with([' ', '\t']);
        if content.trim().is_empty() || content.trim_start().starts_with('#') && !indented {
            if let Some((at, true)) = block {
                fields[at].1.push('\n');
            }
            continue;
        }
        if indented {
            let Some((at, literal)) = block.or_else(|| fields.len().checked_sub(1).map(|at| (at, false))) else {
                return Err(FrontMatterError { line: number, what: "an indented line before any key".into() });
            };
            let value = &mut fields[at].1;
            if !value.is_empty() && !value.ends_with('\n') {
                value.push(' ');
            }
            value.push_str(content.trim());
            if literal {
                value.push('\n');
            }
            continue;
        }
        block = None;
        let Some((key, value)) = content.split_once(':') else {
            return Err(FrontMatterError {
                line: number,
                what: format!("`{}` is not a `key: value` line", content.trim()),
            });
        };
        let key = key.trim();
        if key.is_empty() || key.contains(char::is_whitespace) {
            return Err(FrontMatterError {
                line: number,
                what: format!("`{}` is not a `key: value` line", content.trim()),
            });
        }
        if fields.iter().any(|(k, _)| *k == key) {
            return Err(FrontMatterError { line: number, what: format!("the key `{key}` is given twice") });
        }
        let value = value.trim();
        let value = match value {
            "|" | "|-" | "|+" | ">" | ">-" | ">+" => {
                block = Some((fields.len(), value.starts_with('|')));
                String::new()
            }
            _ => unquote(value).ok_or_else(|| FrontMatterError {
                line: number,
                what: format!("the value of `{key}` opens a quote it does not close"),
            })?,
        };
        fields.push((key, value));
        starts.push(line_start);
    }
    Err(FrontMatterError { line: 1, what: "the front matter opened here has no closing `---` line".into() })
}

/// A one-line YAML scalar without its quotes.
fn unquote(value: &str) -> Option<String> {
    let quoted = |q: char| value.len() >= 2 && value.starts_with(q) && value.ends_with(q);
    if quoted('"') {
        let inner = &value[1..value.len() - 1];
        Some(inner.replace("\\\"", "\"").replace("\\n", "\n").replace("\\\\", "\\"))
    } else if quoted('\'') {
        Some(value[1..value.len() - 1].replace("''", "'"))
    } else if value.starts_with(['"', '\'']) {
        None
    } else {
        Some(value.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_keys_quotes_blocks_and_the_body() {
        let text = "---\nname: review\ndescription: \"Checks a diff: style\"\nmodel: 'it''s'\nnotes: >\n  one\n  two\n---\nBody $ARGUMENTS\n";
        let read = read(text).unwrap();
        assert_eq!(read.get("name"), Some("review"));
        assert_eq!(read.get("description"), Some("Checks a diff: style"));
        assert_eq!(read.get("model"), Some("it's"));
        assert_eq!(read.get("notes"), Some("one two"));
        assert_eq!(read.body, "Body $ARGUMENTS\n");
        assert_eq!(read.body_line, 9);
        assert_eq!(
            read.written,
            [
                "name: review\n",
                "description: \"Checks a diff: style\"\n",
                "model: 'it''s'\n",
                "notes: >\n  one\n  two\n"
            ]
        );
    }

    #[test]
    fn a_file_without_front_matter_is_all_body() {
        let read = read("Just a prompt\n").unwrap();
        assert!(read.fields.is_empty());
        assert_eq!(read.body, "Just a prompt\n");
    }

    #[test]
    fn says_which_line_is_wrong() {
        assert_eq!(read("---\nname: a\nno colon here\n---\n").unwrap_err().line, 3);
        assert_eq!(read("---\nname: a\nname: b\n---\n").unwrap_err().line, 3);
        assert_eq!(read("---\nname: a\n").unwrap_err().line, 1);
        assert_eq!(read("---\ndescription: \"open\n---\n").unwrap_err().line, 2);
    }
}
