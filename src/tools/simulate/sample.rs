//! The sample of a canonical input: every field the host always sends on an event, with a labelled
//! example value (`example-sessionId`), the host's own shell tool as `toolName` and `ls` as its
//! command. The Workbench's editor starts with it, and `hooks simulate` fills what an input leaves
//! out with it, saying which fields it filled.

use serde_json::{Value, json};

use crate::artifact::IndexRow;
use crate::hosts::{self, HostTable};

/// A canonical input every field of which the host sends always: what the editor starts with.
pub fn sample_input(row: &IndexRow) -> Value {
    let table = hosts::table(row.host);
    let (Some(surface), Ok(mapping)) = (&table.hooks, table.mapping_for(row.event, row.hooks_module)) else {
        return json!({});
    };
    let mut sample = serde_json::Map::new();
    for field in surface.input_fields(mapping) {
        let Some(name) = &field.canonical else { continue };
        if !field.required || field.simulate.is_some() {
            continue;
        }
        let value = match (name.as_str(), field.kind) {
            // The host's own name for its shell tool, so a shell guard's matcher fires.
            ("toolName", _) => json!(shell_tool_name(table).unwrap_or_else(|| format!("example-{name}"))),
            ("toolInput", _) => json!({ "command": "ls" }),
            (_, hosts::FieldKind::Boolean) => json!(false),
            (_, hosts::FieldKind::Number) => json!(0),
            (_, hosts::FieldKind::Object) => json!({}),
            (_, hosts::FieldKind::StringArray) => json!(["/tmp/project"]),
            (_, hosts::FieldKind::Enum) => json!(field.values.first().cloned().unwrap_or_default()),
            (_, hosts::FieldKind::Any) => json!({}),
            (_, _) => json!(format!("example-{name}")),
        };
        sample.insert(name.clone(), value);
    }
    Value::Object(sample)
}

/// The first plain tool name (not a regex) the host table lists for its shell.
fn shell_tool_name(table: &HostTable) -> Option<String> {
    let shell = table.selector(crate::vocabulary::canonical::Selector::Shell).ok()?;
    shell.matches.iter().find(|name| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).cloned()
}
