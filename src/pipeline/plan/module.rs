//! Hooks that run in a host's hooks module (Claude Code's mods): which of a host's deliveries run
//! in-process there and which stay commands, with why. The plan marks a delivery as a candidate
//! when the host's table has a hooks module taking the hook's event; whether the hook runs there
//! depends on what its bundle needs (no import, no `import()`, only the module's globals) and on its
//! timeout, so the candidate is settled after bundling, by [`settle`], which the orchestrator calls
//! between the bundle stage and emitting. After it, no delivery is a candidate.

use serde::Serialize;

use super::{Delivery, HookPlan};
use crate::hosts::{self, HooksModule};
use crate::pipeline::normalise::{Handler, Hook, Timeout};

/// Where a delivered hook runs on a host with a hooks module.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ModuleRun {
    /// It may run in the module; the bundle decides ([`settle`]).
    Candidate,
    /// It runs in the module.
    Runs,
    /// It runs as a command hook, for this reason.
    Declined(String),
}

/// Whether `hook` may run in `module`: a config hook with a handler module, on an event the module
/// takes. Routes and prebuilt handlers stay commands.
pub(super) fn candidate(hook: &Hook, module: Option<&HooksModule>) -> Option<ModuleRun> {
    let module = module?;
    let event = hook.event.config()?;
    if !module.events.contains_key(&event) {
        return None;
    }
    if hook.run_async {
        return Some(ModuleRun::Declined(
            "it is async: the hooks module waits for every hook, and its command entry need not".into(),
        ));
    }
    Some(match &hook.handler {
        Handler::Module { .. } => ModuleRun::Candidate,
        Handler::Prebuilt { .. } => {
            ModuleRun::Declined("its handler is prebuilt: a program of its own, which a hooks module cannot run".into())
        }
    })
}

/// The handlers whose bundles a settle needs judged: those of the candidate deliveries, sorted.
pub fn candidate_handlers<'h>(plans: &[HookPlan], hooks: &'h [Hook]) -> Vec<&'h str> {
    let mut handlers: Vec<&str> = plans
        .iter()
        .filter(|plan| plan.targets.iter().any(|t| is_candidate(&t.delivery)))
        .filter_map(|plan| hooks.iter().find(|h| h.id == plan.hook_id))
        .filter_map(|hook| match &hook.handler {
            Handler::Module { path } => Some(path.as_str()),
            Handler::Prebuilt { .. } => None,
        })
        .collect();
    handlers.sort_unstable();
    handlers.dedup();
    handlers
}

fn is_candidate(delivery: &Delivery) -> bool {
    matches!(delivery, Delivery::Native { hooks_module: Some(ModuleRun::Candidate), .. })
}

/// Settles every candidate delivery of `plans`: it runs in the host's hooks module when its handler's
/// bundle needs nothing the module's environment lacks (`unmet(handler, globals)` says what it needs
/// beyond them, empty when nothing) and its timeout fits the module's budget; otherwise it stays the
/// command it was planned as, with the reasons. A delivery that runs in the module takes the module's
/// native event, its budget as the host's default timeout, the module's way of failing closed, and
/// its wrapper imported by the module instead of a command.
pub fn settle(plans: &mut [HookPlan], hooks: &[Hook], unmet: &dyn Fn(&str, &[String]) -> Vec<String>) {
    for plan in plans.iter_mut() {
        let Some(hook) = hooks.iter().find(|h| h.id == plan.hook_id) else { continue };
        for target in &mut plan.targets {
            if !is_candidate(&target.delivery) {
                continue;
            }
            let table = hosts::table(target.target);
            let module =
                table.hooks.as_ref().and_then(|s| s.hooks_module.as_ref()).expect("a candidate's host has one");
            let mapping = table.module_mapping(hook.event).expect("a candidate's event is the module's");
            let Handler::Module { path } = &hook.handler else { unreachable!("candidates have handler modules") };
            let mut reasons: Vec<String> = unmet(path, &module.globals)
                .into_iter()
                .map(|reason| format!("its bundle ({path}): {reason}"))
                .collect();
            if let Timeout::Seconds(seconds) = hook.timeout
                && seconds > module.budget_seconds
            {
                reasons.push(format!(
                    "its timeout of {seconds} s is longer than the {} s a hook may run in {}'s hooks module",
                    module.budget_seconds, table.host
                ));
            }
            let Delivery::Native {
                native_event,
                timeout_seconds,
                host_default_timeout_seconds,
                effective_timeout_seconds,
                fail_closed,
                wrapper,
                command,
                hooks_module,
                ..
            } = &mut target.delivery
            else {
                unreachable!("candidates are delivered")
            };
            if !reasons.is_empty() {
                *hooks_module = Some(ModuleRun::Declined(reasons.join("; ")));
                continue;
            }
            native_event.clone_from(&mapping.native);
            *host_default_timeout_seconds = timeout_seconds.is_none().then_some(module.budget_seconds);
            *effective_timeout_seconds = timeout_seconds.unwrap_or(module.budget_seconds);
            if fail_closed.is_some() {
                *fail_closed = mapping.fail_closed.clone();
            }
            let wrapper = wrapper.as_deref().expect("a handler module has a wrapper");
            *command = super::HostCommand {
                command: crate::io::relative_specifier(&module.module, wrapper),
                ..super::HostCommand::default()
            };
            *hooks_module = Some(ModuleRun::Runs);
        }
    }
}

/// Whether any delivery of `plans` is still a candidate: the plan before [`settle`].
pub fn unsettled(plans: &[HookPlan]) -> bool {
    plans.iter().flat_map(|plan| &plan.targets).any(|t| is_candidate(&t.delivery))
}
