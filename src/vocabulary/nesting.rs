//! How deeply a JavaScript or TypeScript text nests its brackets, measured without parsing it: the
//! parsers agent-bundle runs (swc for configs and routes, oxc inside the bundler) recurse once per
//! level, so a text nested thousands deep would overflow their stack. Strings, template literals
//! and comments are skipped; a regular expression literal holding brackets can count a little
//! high, which only matters for texts already far past any real nesting.

/// The deepest nesting of `(`, `[` and `{` in `text` and the byte offset where it is first
/// reached, or `None` when it never exceeds `limit` (the scan stops at the first level past it).
pub fn past_limit(text: &str, limit: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    // Template literals nest through `${ … }`: the depth at which each open template resumes.
    let mut templates: Vec<usize> = Vec::new();
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        match byte {
            b'/' if bytes.get(index + 1) == Some(&b'/') => {
                while index < bytes.len() && bytes[index] != b'\n' {
                    index += 1;
                }
            }
            b'/' if bytes.get(index + 1) == Some(&b'*') => {
                index += 2;
                while index + 1 < bytes.len() && !(bytes[index] == b'*' && bytes[index + 1] == b'/') {
                    index += 1;
                }
                index += 1;
            }
            b'"' | b'\'' => {
                index += 1;
                while index < bytes.len() && bytes[index] != byte && bytes[index] != b'\n' {
                    if bytes[index] == b'\\' {
                        index += 1;
                    }
                    index += 1;
                }
            }
            b'`' => index = skip_template(bytes, index + 1, &mut depth, &mut templates),
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(index);
                }
            }
            b'}' if templates.last() == Some(&depth) => {
                templates.pop();
                index = skip_template(bytes, index + 1, &mut depth, &mut templates);
                continue;
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        index += 1;
    }
    None
}

/// Skips a template literal's text from `index` to its end (returning the index of the closing
/// backtick) or to a `${`, where the scan goes on in code (remembering where the template resumes).
fn skip_template(bytes: &[u8], mut index: usize, depth: &mut usize, templates: &mut Vec<usize>) -> usize {
    while index < bytes.len() {
        match bytes[index] {
            b'\\' => index += 1,
            b'`' => return index,
            b'$' if bytes.get(index + 1) == Some(&b'{') => {
                templates.push(*depth);
                return index + 1;
            }
            _ => {}
        }
        index += 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_is_counted_outside_strings_comments_and_template_text() {
        assert_eq!(past_limit("f([{ a: 1 }])", 3), None);
        assert_eq!(past_limit("f([{ a: [1] }])", 3), Some(8));
        assert_eq!(past_limit("'((((' \"[[[[\" // {{{{\n /* (((( */ `((((${ (x) }((((`", 1), None);
        assert_eq!(past_limit("`${ `${ ((( }` }`", 2), Some(10));
        let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
        assert_eq!(past_limit(&deep, 1000), Some(1000));
    }
}
