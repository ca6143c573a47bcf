//! The bundle's source map, as the artifact carries it beside the bundle (`<bundle>.map`): sources
//! relative to the bundle root (where the bundler ran), and no copies of the sources themselves: the
//! runtime only needs file and line to name where a handler threw. The bundle carries no
//! `sourceMappingURL` comment, since Node would resolve root-relative sources against the map's own
//! folder and print paths that do not exist; the runtime finds the map by its name.

use serde_json::Value;

/// The map to write beside the chunk at `chunk_path` (its artifact path, which is also where the
/// bundler placed it under the bundle root), from the map rolldown wrote for it: sources made
/// relative to the bundle root, no copies of them, and the chunk's file name. Read once; what the
/// runtime and the findings read.
pub(super) fn finish(map: &str, chunk_path: &str) -> String {
    let Ok(Value::Object(mut map)) = serde_json::from_str::<Value>(map) else { return String::new() };
    let folder = chunk_path.rsplit_once('/').map_or("", |(folder, _)| folder);
    if let Some(Value::Array(sources)) = map.get_mut("sources") {
        for source in sources.iter_mut() {
            if let Value::String(path) = source {
                *path = normalised(&format!("{folder}/{path}"));
            }
        }
    }
    map.remove("sourcesContent");
    map.insert("file".to_string(), Value::String(file_name(chunk_path).to_string()));
    let mut text = crate::vocabulary::json::compact_value(&Value::Object(map));
    text.push('\n');
    text
}

/// A `/`-separated relative path with `.` and `..` segments resolved (leading `..` kept).
fn normalised(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|last| *last != "..") => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

/// The bundle's code with one final newline.
pub(super) fn finish_code(code: &str) -> String {
    let mut text = code.trim_end().to_string();
    text.push('\n');
    text
}

/// The source a generated position of a bundle comes from (0-based line and column), from its map.
pub(super) fn source_at(map: &str, line: usize, column: usize) -> Option<String> {
    let map: Value = serde_json::from_str(map).ok()?;
    let sources = map.get("sources")?.as_array()?;
    let mappings = map.get("mappings")?.as_str()?;
    let mut source = 0i64;
    let mut best = None;
    for (index, segments) in mappings.split(';').enumerate().take(line + 1) {
        let mut generated = 0i64;
        for segment in segments.split(',').filter(|s| !s.is_empty()) {
            let fields = decode_vlq(segment);
            generated += fields.first().copied().unwrap_or(0);
            if fields.len() < 4 {
                continue;
            }
            source += fields[1];
            if index == line && (generated as usize) <= column {
                best = Some(source);
            }
        }
    }
    sources.get(usize::try_from(best?).ok()?)?.as_str().map(str::to_string)
}

fn decode_vlq(segment: &str) -> Vec<i64> {
    const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut values = Vec::new();
    let (mut value, mut shift) = (0i64, 0u32);
    for byte in segment.bytes() {
        let Some(digit) = BASE64.iter().position(|&b| b == byte) else { break };
        let digit = digit as i64;
        value += (digit & 31) << shift;
        if digit & 32 != 0 {
            shift += 5;
        } else {
            values.push(if value & 1 == 1 { -(value >> 1) } else { value >> 1 });
            value = 0;
            shift = 0;
        }
    }
    values
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_lose_their_source_copies_and_name_their_file() {
        let map = r#"{"version":3,"file":"handler.js","sources":["../../../src/a.ts"],"sourcesContent":["x"],"names":[],"mappings":"AAAA"}"#;
        // Keys come out sorted whatever order they were read in.
        let finished = finish(map, "hooks/handlers/src/a.mjs");
        assert_eq!(
            finished,
            "{\"file\":\"a.mjs\",\"mappings\":\"AAAA\",\"names\":[],\"sources\":[\"src/a.ts\"],\"version\":3}\n"
        );
        assert_eq!(finish_code("x;\n\n"), "x;\n");
    }

    #[test]
    fn sources_are_made_relative_to_the_bundle_root() {
        let map =
            r#"{"sources":["../../../../src/a.ts","../../../../node_modules/x/i.js","../../../../../shared/b.ts"]}"#;
        let rooted = finish(map, "hooks/handlers/src/hooks/a.mjs");
        assert_eq!(
            rooted,
            "{\"file\":\"a.mjs\",\"sources\":[\"src/a.ts\",\"node_modules/x/i.js\",\"../shared/b.ts\"]}\n"
        );
    }

    #[test]
    fn a_generated_position_maps_to_its_source() {
        // Line 0 maps to source 0; line 1, from column 4, to source 1.
        let map = r#"{"sources":["a.ts","b.ts"],"mappings":"AAAA;AAAA,ICAA"}"#;
        assert_eq!(source_at(map, 0, 3).as_deref(), Some("a.ts"));
        assert_eq!(source_at(map, 1, 0).as_deref(), Some("a.ts"));
        assert_eq!(source_at(map, 1, 9).as_deref(), Some("b.ts"));
    }
}
