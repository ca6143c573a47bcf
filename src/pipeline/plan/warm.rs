//! Hooks answered by the plugin's own MCP server, kept warm (`bundle.warmServer`, D18): on a host
//! whose document can call a tool of a connected MCP server from a hook entry (Claude Code's
//! `mcp_tool`), a hook that may fail open runs in the server instead of a process per call. The
//! host skips such an entry when the server is not connected (with its warning), so no hook whose
//! failure must block goes there: not a fail-closed guard, not an async hook (the host waits for an
//! entry), not a route of the shared runtime, not a prebuilt handler, and only on the native events of
//! the config events the host's table lists (a route delivered on one of them is answered too). On a
//! host with a hooks module (claude-mod) the module answers what it takes; a hook it declines (one
//! that needs Node) may be the server's, so the orchestrator assigns again once modules are settled.

use serde::Serialize;

use super::{Delivery, HookPlan, ModuleRun};
use crate::hosts;
use crate::pipeline::normalise::{Handler, Hook};

/// Whether the plugin's warm server answers a delivered hook, on a host that can call it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum WarmRun {
    /// The host's entry calls the server's hook tool.
    Answers,
    /// It stays a command, for this reason.
    Declined(String),
}

/// Marks, when the bundle asks for it (`opted_in`), each delivery on a host with a warm-server entry
/// form: answered by the server, or declined with why. Leaves every delivery as it is otherwise.
pub fn assign(plans: &mut [HookPlan], hooks: &[Hook], opted_in: bool) {
    if !opted_in {
        return;
    }
    for plan in plans.iter_mut() {
        let Some(hook) = hooks.iter().find(|h| h.id == plan.hook_id) else { continue };
        for target in &mut plan.targets {
            let table = hosts::table(target.target);
            let Some(form) = table.hooks.as_ref().and_then(|s| s.warm_server.as_ref()) else { continue };
            // The native events of the config events the host's entries may call the server on (a
            // route of a family delivered on one of them is answered there as well).
            let natives: Vec<&str> =
                form.events.iter().filter_map(|e| table.event(*e).ok()).map(|m| m.native.as_str()).collect();
            let Delivery::Native { warm, hooks_module, fail_closed, shared, detached, native_event, .. } =
                &mut target.delivery
            else {
                continue;
            };
            // The host's hooks module answers what it takes; a hook it declines may be the server's
            // (this runs again once the modules are settled).
            if matches!(hooks_module, Some(ModuleRun::Candidate | ModuleRun::Runs)) {
                continue;
            }
            let facts = Facts {
                on_its_event: natives.contains(&native_event.as_str()),
                fail_closed: fail_closed.is_some(),
                shared: *shared,
                detached: *detached,
            };
            *warm = Some(match declined(hook, &facts) {
                Some(reason) => WarmRun::Declined(reason),
                None => WarmRun::Answers,
            });
        }
    }
}

/// What the plan says of one delivery that decides whether the server may answer it.
struct Facts {
    /// Its native event is one the host's entries may call the server on.
    on_its_event: bool,
    fail_closed: bool,
    /// A route rendered in the shared runtime, its wrapper forwarding to it.
    shared: bool,
    /// An async hook whose wrapper answers at once and runs the handler detached.
    detached: bool,
}

/// Why the server may not answer `hook`, if it may not.
fn declined(hook: &Hook, facts: &Facts) -> Option<String> {
    if !facts.on_its_event {
        return Some(format!("the host calls the server from no {} entry that agent-bundle writes", hook.event));
    }
    if facts.fail_closed {
        return Some(
            "it is fail-closed: the host skips a server that is not connected, and its failure must block".into(),
        );
    }
    if hook.run_async || facts.detached {
        return Some("it is async: the host waits for a server's entry".into());
    }
    if facts.shared {
        return Some("its route renders in the shared runtime, which every host's wrapper forwards to".into());
    }
    match hook.handler {
        Handler::Prebuilt { .. } => Some("its handler is prebuilt: a program of its own".into()),
        Handler::Module { .. } => None,
    }
}

/// Whether the server answers `delivery`.
pub fn answers(delivery: &Delivery) -> bool {
    matches!(delivery, Delivery::Native { warm: Some(WarmRun::Answers), .. })
}
