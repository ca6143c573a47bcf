//! The bundle's source map, as the artifact carries it beside the bundle (`<bundle>.map`): sources
//! relative to the bundle root (where the bundler ran), and no copies of the sources themselves: the
//! runtime only needs file and line to name where a handler threw. The bundle carries no
//! `sourceMappingURL` comment, since Node would resolve root-relative sources against the map's own
//! folder and print paths that do not exist; the runtime finds the map by its name.

use serde_json::Value;

/// The map to write beside the bundle at `bundle_path`.
pub(super) fn finish(map: &str, bundle_path: &str) -> String {
    let Ok(Value::Object(mut map)) = serde_json::from_str::<Value>(map) else { return String::new() };
    map.remove("sourcesContent");
    map.insert("file".to_string(), Value::String(file_name(bundle_path).to_string()));
    let mut text = crate::json::compact(&Value::Object(map));
    text.push('\n');
    text
}

/// The bundle's code with one final newline.
pub(super) fn finish_code(code: &str) -> String {
    let mut text = code.trim_end().to_string();
    text.push('\n');
    text
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_lose_their_source_copies_and_name_their_file() {
        let map = r#"{"version":3,"file":"handler.js","sources":["src/a.ts"],"sourcesContent":["x"],"names":[],"mappings":"AAAA"}"#;
        // Keys come out sorted whatever order they were read in.
        let finished = finish(map, "hooks/handlers/src/a.mjs");
        assert_eq!(
            finished,
            "{\"file\":\"a.mjs\",\"mappings\":\"AAAA\",\"names\":[],\"sources\":[\"src/a.ts\"],\"version\":3}\n"
        );
        assert_eq!(finish_code("x;\n\n"), "x;\n");
    }
}
