//! JSON as agent-bundle writes it: object keys sorted at every level, whatever order a value was
//! built in. (serde_json's map keeps insertion order as soon as any crate in the build turns on its
//! `preserve_order` feature, as the bundler's resolver does; sorted keys must not depend on that.)

use serde::Serialize;
use serde_json::{Map, Value};

/// The value with every object's keys sorted.
pub fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(object) => {
            let mut entries: Vec<(&String, &Value)> = object.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k.clone(), sorted(v))).collect::<Map<String, Value>>())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// A value serialised with every object's keys sorted, without building a sorted copy of it.
struct Sorted<'v>(&'v Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self.0 {
            Value::Object(object) => {
                let mut entries: Vec<(&String, &Value)> = object.iter().collect();
                entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, &Sorted(value))?;
                }
                map.end()
            }
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Sorted(item))?;
                }
                seq.end()
            }
            other => other.serialize(serializer),
        }
    }
}

/// Pretty-printed, keys sorted.
pub fn pretty(value: &impl Serialize) -> String {
    pretty_value(&serde_json::to_value(value).expect("agent-bundle's JSON values serialise"))
}

/// [`pretty`] of a value already in hand (no copy of it is made).
pub fn pretty_value(value: &Value) -> String {
    serde_json::to_string_pretty(&Sorted(value)).expect("agent-bundle's JSON values serialise")
}

/// On one line, keys sorted.
pub fn compact(value: &impl Serialize) -> String {
    compact_value(&serde_json::to_value(value).expect("agent-bundle's JSON values serialise"))
}

/// [`compact`] of a value already in hand (no copy of it is made).
pub fn compact_value(value: &Value) -> String {
    serde_json::to_string(&Sorted(value)).expect("agent-bundle's JSON values serialise")
}

/// tsconfig.json is JSON with comments and trailing commas: both removed, strings kept as they are.
pub fn strip_jsonc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                out.extend(chars.next());
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for next in chars.by_ref() {
                    if next == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut previous = ' ';
                for next in chars.by_ref() {
                    if previous == '*' && next == '/' {
                        break;
                    }
                    previous = next;
                }
            }
            (',', _) => {
                // Looked ahead without copying the rest: linear in the text whatever it holds.
                let next = chars.clone().find(|c| !c.is_whitespace());
                if !matches!(next, Some('}') | Some(']')) {
                    out.push(c);
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_come_out_sorted_at_every_level() {
        let value = serde_json::json!({ "b": 1, "a": { "d": [ { "f": 1, "e": 2 } ], "c": 3 } });
        assert_eq!(super::compact(&value), r#"{"a":{"c":3,"d":[{"e":2,"f":1}]},"b":1}"#);
        assert_eq!(super::compact_value(&value), super::compact(&value));
        assert_eq!(super::pretty_value(&value), serde_json::to_string_pretty(&super::sorted(&value)).unwrap());
    }

    #[test]
    fn tsconfig_comments_and_trailing_commas_are_read() {
        let text = "{\n  // a comment\n  \"compilerOptions\": { /* x */ \"paths\": { \"a//b\": [\"./c\",], }, },\n}\n";
        let value: serde_json::Value = serde_json::from_str(&super::strip_jsonc(text)).unwrap();
        assert_eq!(value["compilerOptions"]["paths"]["a//b"][0], "./c");
    }
}
