//! Planning per host: for each normalised hook and each of its targets, what the host will get (its
//! native event, the tool matcher, the timeout) or why it gets nothing. All host knowledge comes from
//! the host tables; this module only combines it.

pub mod combined;
mod command;
pub mod mcp;
pub mod parts;

pub use command::{ANSWER_FD, HostCommand, KeyedCommand, LOADER};
mod matcher;
mod module;
pub mod warm;

use std::collections::BTreeMap;

use serde::Serialize;

pub use matcher::{native_alternative, render_matcher};
pub use module::{ModuleRun, candidate_handlers, settle, unsettled};
pub use warm::WarmRun;

use crate::diagnostic::{Diagnostic, Staged, messages};
use crate::hosts;
use crate::pipeline::normalise::{Handler, Hook, Timeout};
use crate::vocabulary::canonical::{DEFAULT_MAX_INPUT_BYTES, MissingSelector};
use crate::vocabulary::target::Target;

/// What a hook may run for when neither the declaration nor the host documents a timeout (Cursor):
/// the longest default of the documented hosts, so the wrapper never gives up before the host.
pub const UNDOCUMENTED_TIMEOUT_SECONDS: u32 = 600;

/// The wrapper's own deadline, in milliseconds since the node process started: before the host's
/// kill, so that a hanging handler ends with the wrapper's clear message (and, fail-closed, with the
/// blocking exit) rather than with a kill the host may treat as fail-open. A fifth of the timeout,
/// at least 300 ms and at most a second, is left for the host's spawn and node's start-up (timeouts
/// are whole seconds, so the room is never more than the timeout).
pub fn deadline_ms(effective_timeout_seconds: u32) -> u64 {
    let total = u64::from(effective_timeout_seconds) * 1000;
    total - (total / 5).clamp(300, 1000)
}

/// How long the host lets a hook of `mapping`'s event run: the `declared` timeout, else the host's
/// default for the event, else its default for every event, else [`UNDOCUMENTED_TIMEOUT_SECONDS`].
pub fn effective_timeout_seconds(
    declared: Option<u32>,
    surface: &hosts::HookSurface,
    mapping: &hosts::EventMapping,
) -> u32 {
    declared
        .or(mapping.default_timeout_seconds)
        .or(surface.default_timeout_seconds)
        .unwrap_or(UNDOCUMENTED_TIMEOUT_SECONDS)
}

/// A shared route's budget when it sets no `timeoutMs`: how long its wrapper waits for the shared
/// runtime's reply, and when the route's `signal` aborts (never past the wrapper's deadline).
pub const SHARED_ROUTE_BUDGET_MS: u64 = 5000;

/// A route's budget on one host, in milliseconds from the delivery (D13): from the wrapper
/// process's start where the route renders in its wrapper, from the request's arrival where it
/// renders in the shared runtime. Its `signal` aborts then; a shared route's wrapper waits that long
/// for the reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RouteBudget {
    pub ms: u64,
    pub from: BudgetFrom,
}

/// Where a route's budget comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum BudgetFrom {
    /// The route's `config.timeoutMs` (always inside the wrapper's deadline: AB4819).
    Declared,
    /// [`SHARED_ROUTE_BUDGET_MS`], for a shared route without `timeoutMs`.
    SharedDefault,
    /// The wrapper's deadline: a standalone route without `timeoutMs`, or a shared default that
    /// would end past the deadline.
    Deadline,
}

impl BudgetFrom {
    /// How `inspect` names it.
    pub fn words(self) -> &'static str {
        match self {
            BudgetFrom::Declared => "timeoutMs",
            BudgetFrom::SharedDefault => "the shared runtime's default",
            BudgetFrom::Deadline => "the wrapper's deadline",
        }
    }
}

/// A route's budget on a host whose wrapper deadline is `deadline_ms`. `shared`: the route renders
/// in the shared runtime there (a fallback host renders it in the wrapper).
pub fn route_budget(declared_ms: Option<u32>, shared: bool, deadline_ms: u64) -> RouteBudget {
    match declared_ms {
        Some(ms) => RouteBudget { ms: u64::from(ms), from: BudgetFrom::Declared },
        None if shared && SHARED_ROUTE_BUDGET_MS < deadline_ms => {
            RouteBudget { ms: SHARED_ROUTE_BUDGET_MS, from: BudgetFrom::SharedDefault }
        }
        None => RouteBudget { ms: deadline_ms, from: BudgetFrom::Deadline },
    }
}

/// What one host gets for one hook.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "delivery", rename_all = "lowercase")]
#[expect(clippy::large_enum_variant, reason = "one per hook and host, and nearly all of them native")]
pub enum Delivery {
    /// The host runs the hook on its native event.
    Native {
        #[serde(rename = "nativeEvent")]
        native_event: String,
        /// Anchored regex over the host's tool names; `None` fires for every tool.
        matcher: Option<String>,
        /// Seconds written into the host's document; `None` leaves the host's default.
        #[serde(rename = "timeoutSeconds")]
        timeout_seconds: Option<u32>,
        /// The host's default, shown when `timeout_seconds` is `None` (`None`: not documented).
        #[serde(rename = "hostDefaultTimeoutSeconds", skip_serializing_if = "Option::is_none")]
        host_default_timeout_seconds: Option<u32>,
        /// How long the host lets the hook run: the declared timeout, else the host's default, else
        /// [`UNDOCUMENTED_TIMEOUT_SECONDS`]. The wrapper's deadline and `hooks simulate` use it.
        #[serde(rename = "effectiveTimeoutSeconds")]
        effective_timeout_seconds: u32,
        /// How a failure of a fail-closed hook blocks on this host.
        #[serde(rename = "failClosed", skip_serializing_if = "Option::is_none")]
        fail_closed: Option<hosts::FailClosed>,
        /// The wrapper's stdin limit: the declared `maxInputBytes`, else
        /// [`DEFAULT_MAX_INPUT_BYTES`]. An envelope over it is a failure of the hook (D13). `None`
        /// for a prebuilt handler, which runs without a wrapper.
        #[serde(rename = "maxInputBytes", skip_serializing_if = "Option::is_none")]
        max_input_bytes: Option<u64>,
        /// The route renders in the plugin's MCP server on this host (its wrapper forwards to it).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        shared: bool,
        /// A route's budget on this host; `None` for a config hook.
        #[serde(rename = "routeBudget", skip_serializing_if = "Option::is_none")]
        route_budget: Option<RouteBudget>,
        /// The wrapper file the host runs; `None` for a prebuilt handler, which runs as it is.
        #[serde(skip_serializing_if = "Option::is_none")]
        wrapper: Option<String>,
        /// What the host's document runs: its command, an exec form's arguments, its Windows command.
        command: HostCommand,
        /// The hook's selectors this host lacks, each with why, left out of its matcher by
        /// `onMissingSelector: 'skip-selector'`.
        #[serde(rename = "skippedSelectors", skip_serializing_if = "Vec::is_empty")]
        skipped_selectors: Vec<String>,
        /// On a host with a hooks module taking the hook's event (Claude Code's mods): whether it runs
        /// there or as a command, and why ([`settle`] decides after bundling). `None` elsewhere.
        #[serde(rename = "hooksModule", skip_serializing_if = "Option::is_none")]
        hooks_module: Option<ModuleRun>,
        /// On a host that can call the plugin's MCP server from a hook entry, when the bundle asks
        /// for it (`warmServer`): whether the server answers the hook, or why not ([`warm::assign`]).
        #[serde(rename = "warmServer", skip_serializing_if = "Option::is_none")]
        warm: Option<WarmRun>,
        /// Entry options written as the host's own keys of the entry (`statusMessage`, `async`).
        #[serde(rename = "entryOptions", skip_serializing_if = "BTreeMap::is_empty")]
        entry_options: BTreeMap<String, serde_json::Value>,
        /// An `async` hook on a host with no key for it: the wrapper answers at once and runs the
        /// handler detached, so the host goes on without waiting.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        detached: bool,
    },
    /// The host lacks the event; the hook is simply absent from its document.
    Absent { reason: String },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetPlan {
    pub target: Target,
    #[serde(flatten)]
    pub delivery: Delivery,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HookPlan {
    pub hook_id: String,
    pub targets: Vec<TargetPlan>,
}

/// Plans every hook. A hook with a planning error gets no plan.
pub fn plan(hooks: &[Hook]) -> Staged<Vec<HookPlan>> {
    plan_with_servers(hooks, &[])
}

/// Plans every hook, whose `mcp:<server>` selectors name the plugin's servers as `servers` places
/// them. A hook with a planning error gets no plan.
pub fn plan_with_servers(hooks: &[Hook], servers: &[mcp::McpPlan]) -> Staged<Vec<HookPlan>> {
    let mut diagnostics = Vec::new();
    let mut plans = Vec::new();
    for hook in hooks {
        let errors_before = diagnostics.len();
        let targets: Vec<TargetPlan> =
            hook.targets.iter().filter_map(|&target| plan_target(hook, target, servers, &mut diagnostics)).collect();
        if diagnostics.len() > errors_before {
            continue;
        }
        let reached = targets.iter().filter(|t| matches!(t.delivery, Delivery::Native { .. })).count();
        let mut targets = targets;
        for plan in &mut targets {
            let table = hosts::table(plan.target);
            if let (Delivery::Native { wrapper, command, .. }, Some(surface)) =
                (&mut plan.delivery, table.hooks.as_ref())
            {
                if matches!(hook.handler, Handler::Module { .. }) {
                    *wrapper = Some(command::wrapper_path(hook, plan.target, reached, surface.folder.as_deref()));
                }
                match command::host_command(hook, surface, wrapper.as_deref()) {
                    Ok(made) => *command = made,
                    Err(refused) => diagnostics.push(messages::arg_unquotable(
                        &hook.site(),
                        &table.name(),
                        &refused.arg,
                        &refused.shells,
                    )),
                }
            }
        }
        if diagnostics.len() > errors_before {
            continue;
        }
        if reached == 0 {
            let reasons: Vec<(Target, String)> = targets
                .iter()
                .filter_map(|t| match &t.delivery {
                    Delivery::Absent { reason } => Some((t.target, reason.clone())),
                    Delivery::Native { .. } => None,
                })
                .collect();
            let receivers: Vec<Target> =
                Target::ALL.into_iter().filter(|t| hosts::table(*t).mapping(hook.event).is_ok()).collect();
            diagnostics.push(messages::event_unsupported(&hook.site(), &reasons, &receivers));
            continue;
        }
        plans.push(HookPlan { hook_id: hook.id.clone(), targets });
    }
    // Sorted by hook id, so that [`delivered`] finds a hook's plan by binary search (a config may
    // declare thousands of hooks).
    plans.sort_by(|a, b| a.hook_id.cmp(&b.hook_id));
    Staged { value: plans, diagnostics }
}

/// How the reason of a delivery the author chose to leave out (`onMissingSelector`) begins.
pub const SKIPPED: &str = "skipped";

/// Plans one hook on one host: its delivery, the reason it gets nothing, or `None` with the
/// diagnostics of why it cannot be planned.
fn plan_target(
    hook: &Hook,
    target: Target,
    servers: &[mcp::McpPlan],
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<TargetPlan> {
    let table = hosts::table(target);
    let surface = table.hooks.as_ref()?;
    let absent = |reason: String| Some(TargetPlan { target, delivery: Delivery::Absent { reason } });
    let mapping = match table.mapping(hook.event) {
        Ok(mapping) => mapping,
        Err(reason) => return absent(reason.to_string()),
    };
    // A prebuilt handler is a program of its own: a host that runs no command cannot run it.
    if surface.in_process() && matches!(hook.handler, Handler::Prebuilt { .. }) {
        let reason = format!(
            "{} {} runs hooks inside its own process, not as commands: a prebuilt handler is a program of its own, which it cannot run",
            table.host, table.host_version
        );
        return absent(reason);
    }

    let Selectors { mut alternatives, missing } = selectors(hook, table, servers, diagnostics)?;
    if let Some(reason) = skipped_host(hook, table, &missing, &alternatives) {
        return absent(reason);
    }
    alternatives.extend(or_report(source_alternatives(hook, table, mapping), diagnostics)?);
    let has_any_selector = !hook.tools.is_empty() || !hook.native_tools.is_empty() || !hook.mcp_tools.is_empty();
    if has_any_selector && alternatives.is_empty() {
        diagnostics.push(messages::no_applicable_selector(&hook.site(), target));
        return None;
    }
    let timeout_seconds = match hook.timeout {
        Timeout::Seconds(seconds) => Some(seconds),
        Timeout::HostDefault => None,
    };
    let host_default = mapping.default_timeout_seconds.or(surface.default_timeout_seconds);
    let effective_timeout_seconds = effective_timeout_seconds(timeout_seconds, surface, mapping);
    let deadline = deadline_ms(effective_timeout_seconds);
    if let Some(budget) = hook.budget_ms
        && u64::from(budget) >= deadline
    {
        let at = hook.budget_at.as_ref().unwrap_or(&hook.declared_at);
        diagnostics.push(messages::route_budget_too_long(budget, target, deadline, at));
        return None;
    }
    let shared = or_report(shared(hook, table, surface), diagnostics)?;
    let fail_closed = or_report(fail_closed(hook, table, mapping), diagnostics)?;
    let (entry_options, detached) = entry_options(hook, surface);
    Some(TargetPlan {
        target,
        delivery: Delivery::Native {
            native_event: mapping.native.clone(),
            matcher: render_matcher(&alternatives),
            timeout_seconds,
            host_default_timeout_seconds: if timeout_seconds.is_none() { host_default } else { None },
            effective_timeout_seconds,
            fail_closed,
            max_input_bytes: matches!(hook.handler, Handler::Module { .. })
                .then(|| hook.max_input_bytes.unwrap_or(DEFAULT_MAX_INPUT_BYTES)),
            shared,
            route_budget: hook.event.route().map(|_| route_budget(hook.budget_ms, shared, deadline)),
            // Filled in once every host of the hook is planned (the file name counts them).
            wrapper: None,
            command: HostCommand::default(),
            skipped_selectors: missing.iter().map(|(selector, reason)| format!("`{selector}`: {reason}")).collect(),
            hooks_module: module::candidate(hook, surface.hooks_module.as_ref()),
            // Set by `warm::assign`, which knows whether the bundle asks for the warm server.
            warm: None,
            entry_options,
            detached,
        },
    })
}

/// The value, or `None` with its diagnostic recorded.
fn or_report<T>(result: Result<T, Diagnostic>, diagnostics: &mut Vec<Diagnostic>) -> Option<T> {
    result.map_err(|diagnostic| diagnostics.push(diagnostic)).ok()
}

/// A hook's selectors on one host.
struct Selectors {
    /// The matcher's alternatives: the native names of the selectors the host has, its MCP servers'
    /// tool names, the hook's native tools for this host.
    alternatives: Vec<String>,
    /// Each selector the host lacks, with why (`onMissingSelector` other than `error`).
    missing: Vec<(String, String)>,
}

/// The hook's selectors on `table`'s host, or `None` when one it lacks is an error
/// (`onMissingSelector: 'error'`), each recorded.
fn selectors(
    hook: &Hook,
    table: &hosts::HostTable,
    servers: &[mcp::McpPlan],
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Selectors> {
    let mut alternatives: Vec<String> = Vec::new();
    let mut failed = false;
    let mut missing: Vec<(String, String)> = Vec::new();
    for &selector in &hook.tools {
        match table.selector(selector) {
            Ok(mapping) => alternatives.extend(mapping.matches.iter().cloned()),
            Err(reason) if hook.on_missing_selector == MissingSelector::Error => {
                let at = hook.selector_at.iter().find(|(s, _)| *s == selector).map(|(_, at)| at);
                diagnostics.push(messages::selector_unmapped(&hook.site(), selector, at, &table.name(), reason));
                failed = true;
            }
            Err(reason) => missing.push((selector.name().to_string(), reason.to_string())),
        }
    }
    for selector in &hook.mcp_tools {
        match mcp::selector_alternative(selector, servers, table.target) {
            Ok(alternative) => alternatives.push(alternative),
            Err(reason) if hook.on_missing_selector == MissingSelector::Error => {
                let at = hook.tools_at.as_ref();
                let written = selector.written();
                diagnostics.push(messages::mcp_selector_unplaced(&hook.site(), &written, at, &table.name(), &reason));
                failed = true;
            }
            Err(reason) => missing.push((selector.written(), reason)),
        }
    }
    alternatives.extend(
        hook.native_tools.iter().filter(|n| n.target == table.target).map(|n| matcher::native_alternative(&n.name)),
    );
    (!failed).then_some(Selectors { alternatives, missing })
}

/// `onMissingSelector`: a host that lacks a selector is left out, or (`skip-selector`) gets the
/// hook with the selectors it has; left out, too, when it has none of them. The reason it is left
/// out, if it is.
fn skipped_host(
    hook: &Hook,
    table: &hosts::HostTable,
    missing: &[(String, String)],
    alternatives: &[String],
) -> Option<String> {
    if missing.is_empty() || (hook.on_missing_selector != MissingSelector::SkipHost && !alternatives.is_empty()) {
        return None;
    }
    let lacking: Vec<String> = missing.iter().map(|(selector, reason)| format!("`{selector}`: {reason}")).collect();
    Some(format!(
        "{SKIPPED} (onMissingSelector: '{}'): {} {} has no equivalent of {}",
        hook.on_missing_selector.name(),
        table.host,
        table.host_version,
        lacking.join("; ")
    ))
}

/// The matcher's alternatives for the hook's `sources` (sessionStart), from the host's source
/// matcher; an error where the host cannot filter by them.
fn source_alternatives(
    hook: &Hook,
    table: &hosts::HostTable,
    mapping: &hosts::EventMapping,
) -> Result<Vec<String>, Diagnostic> {
    if hook.sources.is_empty() {
        return Ok(Vec::new());
    }
    match mapping.source_matcher.as_ref().map(|m| m.supported()) {
        Some(Ok(matcher)) => {
            let unknown = hook.sources.iter().find(|s| !matcher.values.contains(s));
            if let Some(source) = unknown {
                let reason = format!("{} does not send source `{source}`", table.host);
                return Err(messages::sources_unfilterable(&hook.site(), &table.name(), &reason));
            }
            Ok(hook.sources.iter().map(|s| matcher::escape_regex(s)).collect())
        }
        Some(Err(reason)) => Err(messages::sources_unfilterable(&hook.site(), &table.name(), reason)),
        None => {
            Err(messages::sources_unfilterable(&hook.site(), &table.name(), "its sessionStart has no source matcher"))
        }
    }
}

/// Whether a shared route forwards to the shared runtime: where the host has the plugin's MCP
/// server; elsewhere it falls back to its own wrapper, or cannot be delivered at all.
fn shared(hook: &Hook, table: &hosts::HostTable, surface: &hosts::HookSurface) -> Result<bool, Diagnostic> {
    match (&hook.shared, &surface.mcp_server) {
        (Some(_), hosts::Support::Supported(_)) => Ok(true),
        (Some(runtime), hosts::Support::Unsupported(why)) if !runtime.fallback => {
            let at = runtime.declared_at.as_ref().unwrap_or(&hook.declared_at);
            Err(messages::shared_runtime_unhosted(&hook.name, &table.name(), &why.unsupported, at))
        }
        _ => Ok(false),
    }
}

/// How a fail-closed hook blocks on the host, or an error where it cannot.
fn fail_closed(
    hook: &Hook,
    table: &hosts::HostTable,
    mapping: &hosts::EventMapping,
) -> Result<Option<hosts::FailClosed>, Diagnostic> {
    if !hook.fail_closed {
        return Ok(None);
    }
    // Every host can block beforeTool; a route's family may have no recorded way to block.
    let Some(how) = mapping.fail_closed.clone() else {
        let at = hook.fail_closed_at.as_ref().unwrap_or(&hook.declared_at);
        return Err(messages::fail_closed_unblockable(&hook.site(), &table.name(), &mapping.native, at));
    };
    if let (Handler::Prebuilt { .. }, None) = (&hook.handler, &how.entry) {
        let uncovered = how.uncovered.as_deref().unwrap_or("the host has no failure field");
        return Err(messages::fail_closed_uncovered(&hook.site(), &table.name(), uncovered));
    }
    Ok(Some(how))
}

/// Entry options: the host's own key where it has one; an async hook elsewhere is detached by its
/// wrapper (the second value), and a status line elsewhere is simply not shown.
fn entry_options(hook: &Hook, surface: &hosts::HookSurface) -> (BTreeMap<String, serde_json::Value>, bool) {
    let mut entry_options = BTreeMap::new();
    if let (Some(text), Ok(option)) = (&hook.status_message, surface.entry_options.status_message.supported()) {
        entry_options.insert(option.key.clone(), serde_json::json!(text));
    }
    let mut detached = false;
    if hook.run_async {
        match surface.entry_options.run_async.supported() {
            Ok(option) => {
                entry_options.insert(option.key.clone(), serde_json::json!(true));
            }
            Err(_) => detached = true,
        }
    }
    (entry_options, detached)
}

/// The hosts among `within` that receive hook `hook_id` natively, with their delivery.
pub fn delivered<'p>(plans: &'p [HookPlan], hook_id: &str, within: &[Target]) -> Vec<(Target, &'p Delivery)> {
    let start = plans.partition_point(|plan| plan.hook_id.as_str() < hook_id);
    plans[start..]
        .iter()
        .take_while(|plan| plan.hook_id == hook_id)
        .flat_map(|plan| plan.targets.iter())
        .filter(|t| within.contains(&t.target) && matches!(t.delivery, Delivery::Native { .. }))
        .map(|t| (t.target, &t.delivery))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{BudgetFrom, RouteBudget, deadline_ms, route_budget};

    #[test]
    fn the_deadline_leaves_the_host_room_even_for_a_one_second_timeout() {
        assert_eq!(deadline_ms(1), 700);
        assert_eq!(deadline_ms(2), 1600);
        assert_eq!(deadline_ms(5), 4000);
        assert_eq!(deadline_ms(10), 9000);
        assert_eq!(deadline_ms(600), 599_000);
    }

    #[test]
    fn the_longest_declarable_timeout_fits_nodes_timers_and_one_second_more_does_not() {
        let max = crate::vocabulary::canonical::MAX_TIMEOUT_SECONDS;
        const NODE_TIMER_MS: u64 = (1 << 31) - 1;
        assert!(u64::from(max) * 1000 <= NODE_TIMER_MS && deadline_ms(max) <= NODE_TIMER_MS);
        assert!(u64::from(max + 1) * 1000 > NODE_TIMER_MS, "the limit is the largest that fits");
    }

    #[test]
    fn a_routes_budget_is_its_own_else_the_shared_default_else_the_deadline() {
        let budget = |ms, from| RouteBudget { ms, from };
        assert_eq!(route_budget(Some(300), true, 599_000), budget(300, BudgetFrom::Declared));
        assert_eq!(route_budget(Some(300), false, 599_000), budget(300, BudgetFrom::Declared));
        assert_eq!(route_budget(None, true, 599_000), budget(5000, BudgetFrom::SharedDefault));
        assert_eq!(route_budget(None, false, 599_000), budget(599_000, BudgetFrom::Deadline));
        // Never past the wrapper's deadline.
        assert_eq!(route_budget(None, true, 4000), budget(4000, BudgetFrom::Deadline));
    }
}
