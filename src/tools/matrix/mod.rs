//! The Event and hook matrix (D5 in docs/decisions.md): rendered from the host tables alone, so the README and
//! `cargo agent-bundle matrix` can never disagree with what the compiler does. `markdown.rs` writes the
//! README's tables, one function per table; this file holds the facts both forms read and the JSON form.

mod markdown;

pub use markdown::markdown;

use crate::hosts::{self, HostTable, PartSupport, answer};
use crate::vocabulary::canonical::{CanonicalEvent, ResultPart, Selector};
use crate::vocabulary::hook_event::HookEvent;
use crate::vocabulary::target::Target;

fn hook_hosts() -> Vec<&'static HostTable> {
    Target::ALL.iter().map(|t| hosts::table(*t)).filter(|t| t.has_hooks()).collect()
}

/// Every canonical payload field of any family, in first-seen family order.
fn payload_fields() -> Vec<&'static str> {
    let mut fields: Vec<&str> = Vec::new();
    for family in crate::vocabulary::family::FAMILIES {
        for field in family.payload {
            if !fields.contains(field) {
                fields.push(field);
            }
        }
    }
    fields
}

/// The native keys a host reads `field` from, over every family whose payload has it, sorted.
fn native_keys(host: &HostTable, field: &str) -> Vec<String> {
    let Some(surface) = &host.hooks else { return Vec::new() };
    let mut keys: Vec<String> = crate::vocabulary::family::FAMILIES
        .iter()
        .filter(|family| family.payload.contains(&field))
        .filter_map(|family| host.family(*family).ok())
        .flat_map(|mapping| surface.input_fields(mapping))
        .filter(|input| input.canonical.as_deref() == Some(field))
        .flat_map(|input| std::iter::once(input.key.clone()).chain(input.alternatives.iter().cloned()))
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// Every (event, canonical field) a config handler can receive, in event order and each event's
/// first-seen field order (the types' order), with the native keys each host reads it from (empty:
/// the host does not send it there).
fn config_fields(host: &HostTable, event: CanonicalEvent, field: &str) -> Vec<String> {
    let (Some(surface), Ok(mapping)) = (&host.hooks, host.event(event)) else { return Vec::new() };
    surface
        .input_fields(mapping)
        .filter(|input| input.canonical.as_deref() == Some(field))
        .flat_map(|input| std::iter::once(input.key.clone()).chain(input.alternatives.iter().cloned()))
        .collect()
}

fn config_field_rows() -> Vec<(CanonicalEvent, String)> {
    CanonicalEvent::ALL
        .iter()
        .flat_map(|event| crate::tools::types::config_field_names(*event).into_iter().map(move |field| (*event, field)))
        .collect()
}

/// The matrix as data: the same facts as [`markdown`], each empty cell with its reason.
pub fn json() -> serde_json::Value {
    use serde_json::{Map, Value, json};
    let hosts = hook_hosts();
    let cell = |result: Result<Value, &str>| match result {
        Ok(value) => value,
        Err(reason) => json!({ "unsupported": reason }),
    };
    let per_host = |f: &dyn Fn(&HostTable) -> Value| -> Value {
        Value::Object(hosts.iter().map(|h| (h.target.name().to_string(), f(h))).collect::<Map<_, _>>())
    };
    let events: Map<String, Value> = CanonicalEvent::ALL
        .iter()
        .map(|e| (e.name().to_string(), per_host(&|h| cell(h.event(*e).map(|m| json!({ "native": m.native }))))))
        .collect();
    let families: Map<String, Value> = crate::vocabulary::family::FAMILIES
        .iter()
        .map(|f| {
            let cells = per_host(&|h| cell(h.family(*f).map(|m| json!({ "native": m.native }))));
            (f.name.to_string(), json!({ "deny": f.deny, "tools": f.tools, "hosts": cells }))
        })
        .collect();
    let selectors: Map<String, Value> = Selector::ALL
        .iter()
        .map(|s| (s.name().to_string(), per_host(&|h| cell(h.selector(*s).map(|m| json!({ "matches": m.matches }))))))
        .collect();
    let parts_of = |h: &HostTable, event: HookEvent, mapping: &hosts::EventMapping| -> Map<String, Value> {
        ResultPart::ALL
            .iter()
            .map(|part| {
                let support = match h.result_part(event, *part) {
                    PartSupport::Deliver => json!({ "deliver": answer::writes(&mapping.result, *part) }),
                    PartSupport::Drop(reason) => json!({ "drop": reason }),
                    PartSupport::Refuse(reason) => json!({ "refuse": reason }),
                    PartSupport::Block { reason, exit } => json!({ "block": { "reason": reason, "exit": exit } }),
                };
                (part.name().to_string(), support)
            })
            .collect()
    };
    let route_results: Map<String, Value> = crate::vocabulary::family::FAMILIES
        .iter()
        .map(|family| {
            let cells = per_host(&|h| {
                cell(
                    h.family(*family)
                        .map(|mapping| json!({ "parts": parts_of(h, HookEvent::Route(*family), mapping) })),
                )
            });
            (family.name.to_string(), cells)
        })
        .collect();
    let payload_fields: Map<String, Value> = payload_fields()
        .into_iter()
        .map(|field| (field.to_string(), per_host(&|h| json!(native_keys(h, field)))))
        .collect();
    let results: Map<String, Value> = CanonicalEvent::ALL
        .iter()
        .map(|event| {
            let cells = per_host(&|h| {
                cell(h.event(*event).map(|mapping| {
                    let parts = parts_of(h, HookEvent::Config(*event), mapping);
                    let mut value = json!({ "parts": parts });
                    if let Some(how) = &mapping.fail_closed {
                        value["failClosed"] = serde_json::to_value(how).expect("tables serialise");
                    }
                    value
                }))
            });
            (event.name().to_string(), cells)
        })
        .collect();
    let described: Vec<Value> = hosts
        .iter()
        .map(
            |h| json!({ "target": h.target.name(), "host": h.host, "version": h.host_version, "revision": h.revision }),
        )
        .collect();
    json!({
        "hosts": described,
        "events": events,
        "families": families,
        "selectors": selectors,
        "results": results,
        "routeResults": route_results,
        "windows": per_host(&|h| serde_json::to_value(&h.hooks.as_ref().expect("hook hosts have hooks").windows).expect("tables serialise")),
        "pluginParts": per_host(&|h| {
            let surface = h.hooks.as_ref().expect("hook hosts have hooks");
            crate::vocabulary::part::PartKind::ALL
                .iter()
                .map(|kind| (kind.key().to_string(), cell(surface.plugin_parts.get(*kind).supported().map(|p| serde_json::to_value(p).expect("tables serialise")))))
                .collect::<Map<String, Value>>()
                .into()
        }),
        "pluginMcp": per_host(&|h| cell(h.hooks.as_ref().expect("hook hosts have hooks").plugin_mcp.supported().map(|m| serde_json::to_value(m).expect("tables serialise")))),
        "sharedRuntime": per_host(&|h| cell(h.hooks.as_ref().expect("hook hosts have hooks").mcp_server.supported().map(|d| json!({ "document": d.document })))),
        "payloadFields": payload_fields,
        "configFields": config_field_rows()
            .into_iter()
            .map(|(event, field)| json!({
                "event": event.name(),
                "field": field,
                "hosts": per_host(&|h| json!(config_fields(h, event, &field))),
            }))
            .collect::<Vec<_>>(),
        "toolKinds": crate::vocabulary::canonical::Selector::ALL
            .iter()
            .map(|selector| (selector.name().to_string(), per_host(&|h| cell(h.selector(*selector).map(|m| json!(m.input))))))
            .collect::<Map<String, Value>>(),
    })
}
