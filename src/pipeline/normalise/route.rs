//! Event routes as hooks (D12): a route module under `src/events/` with its judged `config` becomes a
//! [`Hook`] of its family, so that planning, bundling, emitting, `inspect`, `hooks` and snapshots
//! treat it as they treat a config entry. Its name and id are the original's (not hashed: one route
//! per family); its targets are `config.targets`, or the hosts every `requires` row holds on, or the
//! selected hosts.

use std::collections::BTreeSet;

use super::{Handler, Hook, Normaliser, SharedRuntime, Timeout};
use crate::diagnostic::{Diagnostic, messages};
use crate::hosts::{self, PartSupport};
use crate::io::Disk;
use crate::pipeline::config::RouteConfig;
use crate::pipeline::discover::Route;
use crate::vocabulary::canonical::ResultPart;
use crate::vocabulary::family::{FAMILIES, Family};
use crate::vocabulary::hook_event::HookEvent;
use crate::vocabulary::source::{Location, Span};
use crate::vocabulary::target::Target;

/// A capability row: `events.toolBefore.deny` is "a tool/before route can deny on this host".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capability {
    pub family: Family,
    pub part: ResultPart,
}

impl Capability {
    /// Every row there is, as written.
    pub fn all_names() -> Vec<String> {
        FAMILIES
            .iter()
            .flat_map(|f| ResultPart::ALL.iter().map(move |part| format!("events.{}.{}", f.camel(), part.short())))
            .collect()
    }

    pub fn parse(row: &str) -> Option<Capability> {
        let rest = row.strip_prefix("events.")?;
        let (family, part) = rest.rsplit_once('.')?;
        let family = FAMILIES.into_iter().find(|f| f.camel() == family)?;
        let part = ResultPart::ALL.into_iter().find(|p| p.short() == part)?;
        Some(Capability { family, part })
    }

    /// Whether `target` delivers this part for this family (its table has the family and a channel).
    pub fn holds_on(self, target: Target) -> Result<(), String> {
        match hosts::table(target).result_part(HookEvent::Route(self.family), self.part) {
            PartSupport::Deliver => Ok(()),
            PartSupport::Drop(reason) | PartSupport::Refuse(reason) | PartSupport::Block { reason, .. } => Err(reason),
        }
    }
}

/// The hook of one judged route. `selected`: the config's targets.
pub fn route_hook(
    route: &Route,
    config: &RouteConfig,
    selected: &[Target],
    servers: &[super::mcp::McpServer],
    root: &camino::Utf8Path,
    disk: &dyn Disk,
) -> (Option<Hook>, Vec<Diagnostic>) {
    let mut n = Normaliser { root, disk, diagnostics: Vec::new() };
    let family = route.family;
    let declared_at = Location { file: route.path.clone().into(), line: 1, column: 1, span: Span::default() };
    let hook_capable: Vec<Target> = hosts::built_hosts(selected);
    let targets: Vec<Target> = match (&config.targets, config.requires.as_slice()) {
        (Some(targets), [first, ..]) => {
            n.diagnostics.push(messages::route_requires_with_targets(&first.at, &targets.at));
            return (None, n.diagnostics);
        }
        (Some(targets), []) => {
            let named: BTreeSet<Target> = targets
                .value
                .iter()
                .filter_map(|t| Target::from_name(&t.value))
                .map(|t| hosts::table(t).built_as())
                .collect();
            hook_capable.iter().copied().filter(|t| named.contains(t)).collect()
        }
        // Every selected host; those without the family get nothing, with the table's reason (the
        // plan records it, and a route no host receives is an error there).
        (None, []) => hook_capable.clone(),
        (None, rows) => {
            let mut capabilities = Vec::new();
            for row in rows {
                match Capability::parse(&row.value) {
                    Some(capability) => capabilities.push((capability, row)),
                    None => n.diagnostics.push(messages::route_requires_unknown(
                        &row.value,
                        &Capability::all_names(),
                        &row.at,
                    )),
                }
            }
            if capabilities.len() < rows.len() {
                return (None, n.diagnostics);
            }
            let mut unmet: Vec<(Target, String, String)> = Vec::new();
            let targets: Vec<Target> = hook_capable
                .iter()
                .copied()
                .filter(|&target| {
                    capabilities.iter().all(|(capability, row)| match capability.holds_on(target) {
                        Ok(()) => true,
                        Err(reason) => {
                            unmet.push((target, row.value.clone(), reason));
                            false
                        }
                    })
                })
                .collect();
            if targets.is_empty() {
                n.diagnostics.push(messages::route_requires_unmet(&route.path, &unmet, &rows[0].at));
                return (None, n.diagnostics);
            }
            targets
        }
    };
    let (tools, native_tools, mcp_tools) = n.selectors(&config.tools, &targets, servers);
    let on_missing_selector =
        n.missing_selector(config.on_missing_selector.as_ref(), !tools.is_empty() || !mcp_tools.is_empty());
    let budget_ms = config.timeout_ms.as_ref().map(|ms| ms.value.ceil() as u32);
    let timeout = n.timeout(config.timeout.as_ref());
    let max_input_bytes = n.max_input_bytes(config.max_input_bytes.as_ref());
    // A family that cannot deny was refused when the route's config was judged (AB4829).
    let fail_closed = family.deny && config.fail_closed.as_ref().is_some_and(|flag| flag.value);
    if !n.diagnostics.is_empty() {
        return (None, n.diagnostics);
    }
    let mut identity = serde_json::json!({
        "route": family.name,
        "handler": route.path,
        "targets": targets.iter().map(|t| t.name()).collect::<Vec<_>>(),
        "tools": tools.iter().map(|s| s.name()).collect::<Vec<_>>(),
        "nativeTools": native_tools.iter().map(|s| format!("{}:{}", s.target, s.name)).collect::<Vec<_>>(),
        "timeoutMs": budget_ms,
    });
    // Only when set, so routes declared before these keys existed keep their declaration.
    if fail_closed {
        identity["failClosed"] = serde_json::json!(true);
    }
    if let Some(bytes) = max_input_bytes {
        identity["maxInputBytes"] = serde_json::json!(bytes);
    }
    if !mcp_tools.is_empty() {
        identity["mcpTools"] = serde_json::json!(mcp_tools.iter().map(|m| m.written()).collect::<Vec<_>>());
    }
    if let Timeout::Seconds(seconds) = timeout {
        identity["timeout"] = serde_json::json!(seconds);
    }
    if on_missing_selector != crate::vocabulary::canonical::MissingSelector::Error {
        identity["onMissingSelector"] = serde_json::json!(on_missing_selector.name());
    }
    let identity = crate::vocabulary::json::compact(&identity);
    let hook = Hook {
        name: format!("event-route-{}", family.slug()),
        id: format!("hook:event-route:{}", family.name),
        event: HookEvent::Route(family),
        handler: Handler::Module { path: route.path.clone() },
        targets,
        targets_declared: config.targets.is_some() || !config.requires.is_empty(),
        tools,
        native_tools,
        mcp_tools,
        timeout,
        args: Vec::new(),
        fail_closed,
        fail_closed_at: config.fail_closed.as_ref().map(|flag| flag.at.clone()),
        max_input_bytes,
        sources: Vec::new(),
        budget_ms,
        budget_at: config.timeout_ms.as_ref().map(|ms| ms.at.clone()),
        shared: config.runtime.as_ref().filter(|r| r.value == "shared").map(|r| SharedRuntime {
            fallback: config.fallback.as_ref().is_some_and(|f| f.value == "standalone"),
            declared_at: Some(r.at.clone()),
        }),
        declared_at,
        tools_at: config.tools.first().map(|t| t.at.clone()),
        selector_at: super::selector_locations(&config.tools),
        on_missing_selector,
        run_async: false,
        status_message: None,
        identity,
    };
    (Some(hook), n.diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capability_rows_parse_as_the_original_writes_them() {
        let row = Capability::parse("events.toolBefore.deny").expect("parses");
        assert_eq!((row.family.name, row.part), ("tool/before", ResultPart::Deny));
        let row = Capability::parse("events.modelSwitchBefore.ask").expect("parses");
        assert_eq!(row.family.name, "model-switch/before");
        assert_eq!(Capability::parse("events.stop.context").map(|c| c.part), Some(ResultPart::AdditionalContext));
        assert_eq!(Capability::parse("events.toolBefore.block"), None);
        assert_eq!(Capability::parse("tool/before.deny"), None);
        assert_eq!(Capability::all_names().len(), 22 * 5);
    }

    #[test]
    fn rows_hold_where_the_tables_have_a_channel() {
        let deny = Capability::parse("events.toolBefore.deny").unwrap();
        assert!(Target::ALL.iter().filter(|t| hosts::table(**t).has_hooks()).all(|t| deny.holds_on(*t).is_ok()));
        let context = Capability::parse("events.promptSubmit.context").unwrap();
        assert!(context.holds_on(Target::Claude).is_ok());
        assert!(context.holds_on(Target::Cursor).is_err());
    }
}
