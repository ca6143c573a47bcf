//! Payload types from the host tables: for each field a handler or route can receive, the TypeScript
//! type of the value the wrappers decode, joined over every host that sends it.

use std::collections::BTreeSet;

use crate::hosts::{self, Decode, EventMapping, FieldKind, HookSurface, InputField};
use crate::vocabulary::canonical::CanonicalEvent;
use crate::vocabulary::family::Family;

/// The TypeScript type of one host's decoded value.
fn ts_type(field: &InputField) -> String {
    match (field.decode, field.kind) {
        (Some(Decode::Positive), _) => "boolean".into(),
        (Some(Decode::Json), _) => "unknown".into(),
        (_, FieldKind::String) => "string".into(),
        (_, FieldKind::NullableString) => "string | null".into(),
        (_, FieldKind::Boolean) => "boolean".into(),
        (_, FieldKind::Number) => "number".into(),
        (_, FieldKind::Object) => "Readonly<Record<string, unknown>>".into(),
        (_, FieldKind::StringArray) => "readonly string[]".into(),
        (_, FieldKind::Enum) => field.values.iter().map(|v| format!("'{v}'")).collect::<Vec<_>>().join(" | "),
        (_, FieldKind::Any) => "unknown".into(),
    }
}

/// One type for the values of every host: `unknown` absorbs the rest; otherwise the distinct
/// alternatives, joined.
fn join(types: &[String]) -> String {
    if types.iter().any(|t| t == "unknown") {
        return "unknown".into();
    }
    let mut alternatives: BTreeSet<&str> = types.iter().flat_map(|t| t.split(" | ")).collect();
    // `string` already holds every string literal.
    if alternatives.contains("string") {
        alternatives.retain(|a| !a.starts_with('\''));
    }
    let nullable = alternatives.remove("null");
    let mut joined = alternatives.into_iter().collect::<Vec<_>>().join(" | ");
    if nullable {
        joined.push_str(" | null");
    }
    joined
}

/// The fields every host with the event sends, in first-seen order, each with the hosts' types and
/// whether every such host always sends it.
fn fields<'t>(
    mappings: &[(&'t HookSurface, &'t EventMapping)],
    keep: impl Fn(&str) -> bool,
) -> Vec<(String, String, bool)> {
    let mut order: Vec<String> = Vec::new();
    for (surface, mapping) in mappings {
        for field in surface.input_fields(mapping) {
            if let Some(name) = &field.canonical
                && keep(name)
                && !order.contains(name)
            {
                order.push(name.clone());
            }
        }
    }
    order
        .into_iter()
        .map(|name| {
            let mut types = Vec::new();
            let mut always = true;
            for (surface, mapping) in mappings {
                match surface.input_fields(mapping).find(|f| f.canonical.as_deref() == Some(name.as_str())) {
                    Some(field) => {
                        types.push(ts_type(field));
                        always &= field.required;
                    }
                    None => always = false,
                }
            }
            (name, join(&types), always)
        })
        .collect()
}

/// A config event's payload fields: (name, type, present on every host).
pub fn config_fields(event: CanonicalEvent) -> Vec<(String, String, bool)> {
    let mappings: Vec<_> =
        hosts::tables().iter().filter_map(|t| Some((t.hooks.as_ref()?, t.event(event).ok()?))).collect();
    let mut found = fields(&mappings, |_| true);
    // Old names, for one release: the same type as the canonical field they stand for.
    for (old, canonical) in crate::vocabulary::canonical::PAYLOAD_ALIASES {
        if let Some((_, ty, always)) = found.iter().find(|(name, _, _)| name == canonical).cloned() {
            found.push(((*old).to_string(), ty, always));
        }
    }
    if event.accepts_tools() {
        found.push((TOOL_FIELD.into(), "ToolCall".into(), true));
    }
    found
}

/// The payload field a tool event's wrapper adds: the canonical tool (`ToolCall` in `agent-bundle`).
const TOOL_FIELD: &str = "tool";

/// A route family's payload fields (each absent when a host does not send it): (name, type).
pub fn route_fields(family: Family) -> Vec<(String, String)> {
    let mappings: Vec<_> =
        hosts::tables().iter().filter_map(|t| Some((t.hooks.as_ref()?, t.family(family).ok()?))).collect();
    let mut found = fields(&mappings, |name| family.payload.contains(&name));
    // In the family's own order, which is the order the reference lists them.
    found.sort_by_key(|(name, _, _)| family.payload.iter().position(|f| f == name));
    let mut found: Vec<(String, String)> = found.into_iter().map(|(name, ty, _)| (name, ty)).collect();
    if family.tools {
        found.push((TOOL_FIELD.into(), "ToolCall".into()));
    }
    found
}
