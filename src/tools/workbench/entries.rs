//! What the page lists: one entry per hook or route, with its hosts side by side. Every per-host fact
//! comes from the artifact's index (what the host runs) and the plan (why a host does not run it);
//! every result part's fate from the host table's one decision ([`HostTable::result_part_in`]), so the
//! picture the page draws is what `matrix` and the wrappers do.

use camino::Utf8Path;
use serde_json::{Value, json};

use crate::artifact::{IndexRow, read_verified};
use crate::hosts::{self, HostTable, PartSupport};
use crate::io::RealDisk;
use crate::pipeline::Loaded;
use crate::pipeline::plan::Delivery;
use crate::vocabulary::canonical::ResultPart;
use crate::vocabulary::target::Target;

use super::samples;

/// The page's entries and the index rows they are made of (the rows are also what the API names a
/// hook by).
pub struct Listed {
    pub entries: Vec<Value>,
    pub rows: Vec<Value>,
}

pub fn list(artifact: &Utf8Path, loaded: &Loaded) -> Listed {
    let Ok(manifest) = read_verified(artifact, &RealDisk) else {
        return Listed { entries: Vec::new(), rows: Vec::new() };
    };
    let rows: Vec<Value> = manifest.hooks.iter().map(row_value).collect();
    let Some(bundle) = &loaded.bundle else { return Listed { entries: Vec::new(), rows } };
    let mut entries = Vec::new();
    for hook in bundle.normalised.hooks_in_document_order() {
        let hook_rows: Vec<&IndexRow> = manifest.hooks.iter().filter(|row| row.id == hook.id).collect();
        let plans = bundle.plans.iter().find(|plan| plan.hook_id == hook.id);
        let mut hosts = Vec::new();
        // In the hosts' fixed order, so columns line up from one entry to the next.
        for target in Target::ALL.iter().filter(|t| hook.targets.contains(t)) {
            if let Some(row) = hook_rows.iter().find(|row| row.host == *target) {
                hosts.push(host_column(row));
                continue;
            }
            let reason = plans
                .and_then(|p| p.targets.iter().find(|t| t.target == *target))
                .map(|plan| match &plan.delivery {
                    Delivery::Absent { reason } => reason.clone(),
                    Delivery::Native { .. } => {
                        "planned for this host but not in the artifact's index: rebuild the artifact".to_string()
                    }
                })
                .unwrap_or_else(|| "not planned for this host".to_string());
            hosts.push(json!({ "host": target.name(), "delivered": false, "reason": reason }));
        }
        let parts: Vec<&str> =
            ResultPart::ALL.iter().filter(|part| hook.event.refuses(**part).is_none()).map(|p| p.short()).collect();
        let mut tools: Vec<String> = hook.tools.iter().map(|s| s.name().to_string()).collect();
        tools.extend(hook.native_tools.iter().map(|n| format!("{}:{}", n.target, n.name)));
        tools.extend(hook.mcp_tools.iter().map(|m| m.written()));
        let at = &hook.declared_at;
        entries.push(json!({
            "name": hook.name,
            "id": hook.id,
            "kind": if matches!(hook.event, crate::vocabulary::hook_event::HookEvent::Route(_)) { "route" } else { "hook" },
            "event": hook.event,
            "declaredAt": format!("{}:{}:{}", at.file, at.line, at.column),
            "declared": { "file": at.file, "line": at.line, "column": at.column },
            "handler": hook.handler.path(),
            "tools": tools,
            "failClosed": hook.fail_closed,
            "parts": parts,
            "hosts": hosts,
        }));
    }
    Listed { entries, rows }
}

/// An index row as the API shows it (what `/api/run` names by host and hook), with its samples.
fn row_value(row: &IndexRow) -> Value {
    let mut value = serde_json::to_value(row).expect("rows serialise");
    let sample = crate::tools::simulate::sample_input(row);
    // A real host's envelope where one was recorded, else the sample as the host would write it.
    value["nativeSample"] = samples::recorded(row.host, &row.native_event)
        .or_else(|| crate::tools::simulate::encode(row, &sample).ok())
        .unwrap_or(Value::Null);
    value["sample"] = sample;
    value
}

/// One host's column of an entry: what the host runs, and what becomes of each result part.
fn host_column(row: &IndexRow) -> Value {
    let table = hosts::table(row.host);
    let parts: serde_json::Map<String, Value> = ResultPart::ALL
        .iter()
        .filter(|part| row.event.refuses(**part).is_none())
        .map(|part| {
            let cell = match table.result_part_in(row.event, row.hooks_module, *part) {
                PartSupport::Deliver => {
                    let writes = table
                        .mapping_for(row.event, row.hooks_module)
                        .map(|m| hosts::answer::describe(&hosts::answer::writes(&m.result, *part)))
                        .unwrap_or_default();
                    json!({ "fate": "delivered", "why": writes })
                }
                PartSupport::Drop(reason) => json!({ "fate": "dropped", "why": reason }),
                PartSupport::Refuse(reason) => json!({ "fate": "refused", "why": reason }),
                PartSupport::Block { reason, exit } => {
                    json!({ "fate": "blocks", "why": format!("blocks the call with exit {exit}: {reason}") })
                }
            };
            (part.short().to_string(), cell)
        })
        .collect();
    json!({
        "host": row.host.name(),
        "delivered": true,
        "hook": row.name,
        "nativeEvent": row.native_event,
        "matcher": row.matcher,
        "timeout": row.timeout,
        "effectiveTimeout": row.effective_timeout,
        "timeoutWords": match row.timeout {
            Some(seconds) => format!("{seconds} s (declared)"),
            None => format!("{} s (the host's default)", row.effective_timeout),
        },
        "failure": failure_words(table, row),
        "failClosed": row.fail_closed,
        "hooksModule": row.hooks_module,
        "sharedRuntime": row.shared_runtime,
        "wrapper": row.path,
        "parts": parts,
    })
}

/// The failure policy on one host, in a few words.
fn failure_words(table: &HostTable, row: &IndexRow) -> String {
    if !row.fail_closed {
        return "fails open: a failure lets the call through".into();
    }
    let how = table.mapping_for(row.event, row.hooks_module).ok().and_then(|m| m.fail_closed.as_ref());
    match how {
        Some(how) if how.entry.is_some() => {
            format!("fail-closed: exit {} blocks, and the host's own kill blocks too", how.exit)
        }
        Some(how) => format!(
            "fail-closed: exit {} blocks; {}",
            how.exit,
            how.uncovered.as_deref().unwrap_or("the host's own kill is not covered")
        ),
        None => "fail-closed".into(),
    }
}
