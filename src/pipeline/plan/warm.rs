//! Hooks answered by the plugin's own MCP server, kept warm (`bundle.warmServer`, D18): on a host
//! whose document can call a tool of a connected MCP server from a hook entry (Claude Code's
//! `mcp_tool`), a hook that may fail open runs in the server instead of a process per call. The
//! host skips such an entry when the server is not connected (with its warning), so no hook whose
//! failure must block goes there: not a fail-closed guard, not an async hook (the host waits for an
//! entry), not a route, not a prebuilt handler, and only on the events the host's table lists. A
//! host's hooks module (claude-mod) answers its hooks itself: none go to the server there.

use serde::Serialize;

use super::{Delivery, HookPlan};
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
            let Some(warm_form) = table.hooks.as_ref().and_then(|s| s.warm_server.as_ref()) else { continue };
            let Delivery::Native { warm, hooks_module, fail_closed, shared, detached, .. } = &mut target.delivery
            else {
                continue;
            };
            if hooks_module.is_some() {
                continue;
            }
            *warm = Some(match declined(hook, fail_closed.is_some(), *shared || *detached, &warm_form.events) {
                Some(reason) => WarmRun::Declined(reason),
                None => WarmRun::Answers,
            });
        }
    }
}

/// Why the server may not answer `hook`, if it may not.
fn declined(
    hook: &Hook,
    fail_closed: bool,
    own_process: bool,
    events: &[crate::vocabulary::canonical::CanonicalEvent],
) -> Option<String> {
    let Some(event) = hook.event.config() else {
        return Some("it is a route: its wrapper renders it (or forwards it to the shared runtime)".into());
    };
    if !events.contains(&event) {
        return Some(format!("the host calls the server from no {event} entry that agent-bundle writes"));
    }
    if fail_closed {
        return Some(
            "it is fail-closed: the host skips a server that is not connected, and its failure must block".into(),
        );
    }
    if hook.run_async || own_process {
        return Some("it is async: the host waits for a server's entry".into());
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
