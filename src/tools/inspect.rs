//! `inspect`: what the compiler read and what each host will get, for people and as stable JSON.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::pipeline::Bundle;
use crate::pipeline::normalise::{Handler, Hook, Timeout};
use crate::pipeline::plan::mcp::McpDelivery;
use crate::pipeline::plan::parts::PartDelivery;
use crate::pipeline::plan::{Delivery, HookPlan, ModuleRun, RouteBudget, TargetPlan, WarmRun};
use crate::vocabulary::target::Target;

/// The width of the host column of `inspect`'s text: the longest target name and a space.
const HOST_COLUMN: usize = 11;

/// The hooks `inspect` shows, each with its plan narrowed to `filter` (all targets when `None`).
fn shown_hooks(bundle: &Bundle, filter: Option<Target>) -> Vec<(&Hook, Vec<&TargetPlan>)> {
    bundle
        .normalised
        .hooks
        .iter()
        .filter_map(|hook| {
            let plan: Option<&HookPlan> = bundle.plans.iter().find(|p| p.hook_id == hook.id);
            let targets: Vec<&TargetPlan> = plan
                .map(|p| p.targets.iter().filter(|t| filter.is_none_or(|f| t.target == f)).collect())
                .unwrap_or_default();
            (filter.is_none() || !targets.is_empty()).then_some((hook, targets))
        })
        .collect()
}

/// The summary `inspect` prints without `--hooks`.
pub fn render_summary(bundle: &Bundle, filter: Option<Target>) -> String {
    let mut out = String::new();
    let plugin = &bundle.plugin;
    let from_folder = if plugin.name_from_folder { " (from the folder name; set `plugin.name`)" } else { "" };
    let _ = writeln!(out, "plugin   {}{from_folder}", plugin.name);
    if let Some(description) = &plugin.description {
        let _ = writeln!(out, "about    {description}");
    }
    let _ = writeln!(out, "config   {}", bundle.config_file);
    let _ = writeln!(out, "targets  {}", targets_line(&bundle.normalised.targets));
    let hooks = shown_hooks(bundle, filter);
    let mut per_target = Vec::new();
    for target in Target::ALL {
        let count = hooks
            .iter()
            .filter(|(_, plans)| {
                plans.iter().any(|p| p.target == target && matches!(p.delivery, Delivery::Native { .. }))
            })
            .count();
        if count > 0 {
            per_target.push(format!("{target} {count}"));
        }
    }
    let detail = if per_target.is_empty() { String::new() } else { format!(" ({})", per_target.join(", ")) };
    let _ = writeln!(out, "hooks    {}{detail}", hooks.len());
    let routes: Vec<&str> = hooks.iter().filter_map(|(hook, _)| hook.event.route()).map(|f| f.name).collect();
    if !routes.is_empty() {
        let _ = writeln!(out, "routes   {} (under src/events/): {}", routes.len(), routes.join(", "));
    }
    if !bundle.normalised.payloads.is_empty() {
        let names: Vec<_> = bundle.normalised.payloads.iter().map(|p| format!("{} <- {}", p.name, p.source)).collect();
        let _ = writeln!(out, "payloads {}", names.join(", "));
    }
    // The plugin's own MCP servers, each with the hosts that get it (and those that do not).
    for plan in &bundle.mcp {
        let placed = |want: bool| -> Vec<&str> {
            plan.targets
                .iter()
                .filter(|t| filter.is_none_or(|f| t.target == f))
                .filter(|t| matches!(t.delivery, McpDelivery::Placed { .. }) == want)
                .map(|t| t.target.name())
                .collect()
        };
        let (on, off) = (placed(true), placed(false));
        let without = if off.is_empty() { String::new() } else { format!("; not for {}", off.join(", ")) };
        let _ = writeln!(out, "mcp      {} ({}{without})", plan.server, on.join(", "));
    }
    // The plugin's skills, commands, agents and context file: where each host gets them, or not.
    for plan in &bundle.parts {
        let shown = plan.targets.iter().filter(|t| filter.is_none_or(|f| t.target == f));
        let (mut on, mut off) = (Vec::new(), Vec::new());
        for planned in shown {
            match &planned.delivery {
                PartDelivery::Placed { folder, .. } => {
                    on.push(format!("{} {}", planned.target, if folder.is_empty() { "." } else { folder }))
                }
                PartDelivery::Absent { .. } => off.push(planned.target.name()),
            }
        }
        if on.is_empty() && off.is_empty() {
            continue;
        }
        let without = if off.is_empty() { String::new() } else { format!("; not for {}", off.join(", ")) };
        let _ = writeln!(out, "{:<8} {}{without}", plan.kind.key(), on.join(", "));
    }
    out
}

fn targets_line(targets: &[Target]) -> String {
    targets
        .iter()
        .map(|t| if crate::hosts::table(*t).has_hooks() { t.name().to_string() } else { format!("{t} (no hooks)") })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The route view of `inspect --routes`: each event route with its module, how its hosts were chosen,
/// and per host the native event, what the route may render there and the native key of each payload
/// field (or why the host gets nothing).
pub fn render_routes(bundle: &Bundle, filter: Option<Target>) -> String {
    use crate::hosts::PartSupport;
    use crate::vocabulary::canonical::ResultPart;
    use crate::vocabulary::hook_event::HookEvent;
    let routes: Vec<_> =
        shown_hooks(bundle, filter).into_iter().filter(|(hook, _)| hook.event.route().is_some()).collect();
    let mut out = String::new();
    if routes.is_empty() {
        let _ = writeln!(out, "no event routes under src/events/");
        return out;
    }
    for (index, (hook, plans)) in routes.iter().enumerate() {
        let family = hook.event.route().expect("filtered to routes");
        if index > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "{}  ({})", family, hook.handler.path());
        let _ = writeln!(out, "  hook     {}", hook.name);
        let _ = writeln!(out, "  runtime  {}", runtime_words(hook));
        if hook.fail_closed {
            let _ = writeln!(out, "  failure  blocks (fail-closed): any failure of the route blocks the call");
        }
        if let Some(bytes) = hook.max_input_bytes {
            let _ =
                writeln!(out, "  input    at most {bytes} bytes (maxInputBytes); a larger envelope fails the route");
        }
        let mut tools: Vec<String> = hook.tools.iter().map(|s| s.name().to_string()).collect();
        tools.extend(hook.native_tools.iter().map(|n| format!("{}:{}", n.target, n.name)));
        tools.extend(hook.mcp_tools.iter().map(|m| m.written()));
        if !tools.is_empty() {
            let _ = writeln!(out, "  tools    {}", tools.join(", "));
        }
        for plan in plans {
            let table = crate::hosts::table(plan.target);
            let Delivery::Native { native_event, shared, route_budget, .. } = &plan.delivery else {
                if let Delivery::Absent { reason } = &plan.delivery {
                    let _ = writeln!(out, "  {:<w$}not delivered: {reason}", plan.target.name(), w = HOST_COLUMN);
                }
                continue;
            };
            let written = |part: &ResultPart| match part {
                ResultPart::AdditionalContext => "<Agent.Context>",
                ResultPart::UpdatedInput => "updatedInput",
                other => other.name(),
            };
            let with = |keep: &dyn Fn(&PartSupport) -> bool| -> Vec<&str> {
                ResultPart::ALL
                    .iter()
                    .filter(|part| keep(&table.result_part(HookEvent::Route(family), **part)))
                    .map(written)
                    .collect()
            };
            let renders = with(&|s| *s == PartSupport::Deliver);
            let mut renders =
                if renders.is_empty() { "nothing (observes only)".to_string() } else { renders.join(", ") };
            let dropped = with(&|s| matches!(s, PartSupport::Drop(_)));
            if !dropped.is_empty() {
                let _ = write!(renders, "; drops {} with a note", dropped.join(", "));
            }
            let blocked = with(&|s| matches!(s, PartSupport::Block { .. }));
            if !blocked.is_empty() {
                let _ = write!(renders, "; blocks the call for {}", blocked.join(", "));
            }
            let _ = writeln!(out, "  {:<w$}{native_event}; may render {renders}", plan.target.name(), w = HOST_COLUMN);
            if let Some(budget) = route_budget {
                let _ = writeln!(out, "  {:<w$}budget {}", "", budget_words(hook, *shared, budget), w = HOST_COLUMN);
            }
            if let (Some(surface), Ok(mapping)) = (&table.hooks, table.family(family)) {
                let keys: Vec<String> = family
                    .payload
                    .iter()
                    .map(|field| {
                        let key = surface
                            .input_fields(mapping)
                            .find(|input| input.canonical.as_deref() == Some(field))
                            .map_or("—", |input| input.key.as_str());
                        format!("{field} <- {key}")
                    })
                    .collect();
                let _ = writeln!(out, "  {:<w$}payload {}", "", keys.join(", "), w = HOST_COLUMN);
            }
        }
    }
    out
}

/// A route's budget on one host, as `inspect` says it: how long, counted from what, decided by what.
fn budget_words(hook: &Hook, shared: bool, budget: &RouteBudget) -> String {
    let from = match (shared, hook.shared.as_ref()) {
        (true, Some(runtime)) if runtime.fallback => {
            "the request's arrival in the shared runtime (the wrapper's start when it falls back)"
        }
        (true, _) => "the request's arrival in the shared runtime",
        (false, _) => "the wrapper's start",
    };
    format!("{} ms ({}), counted from {from}; the signal aborts then", budget.ms, budget.from.words())
}

/// How `inspect` names a route's runtime.
fn runtime_words(hook: &Hook) -> &'static str {
    match &hook.shared {
        Some(shared) if shared.fallback => {
            "shared runtime (the plugin's MCP server), its own wrapper where no server answers"
        }
        Some(_) => "shared runtime (the plugin's MCP server), no fallback",
        None => "standalone runtime (its own wrapper process)",
    }
}

/// The per-hook listing of `inspect --hooks`.
pub fn render_hooks(bundle: &Bundle, filter: Option<Target>) -> String {
    let hooks = shown_hooks(bundle, filter);
    let mut out = String::new();
    if hooks.is_empty() {
        let scope = filter.map(|t| format!(" for {t}")).unwrap_or_default();
        let _ = writeln!(out, "no hooks{scope}");
        return out;
    }
    let combinings = combinings(bundle);
    for (index, (hook, plans)) in hooks.iter().enumerate() {
        if index > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "{}", hook.name);
        let _ = writeln!(out, "  id       {}", hook.id);
        let _ = writeln!(out, "  event    {}", hook.event);
        let handler = match &hook.handler {
            Handler::Module { path } => path.clone(),
            Handler::Prebuilt { path, artifact_path, .. } => format!("{path} (prebuilt, shipped as {artifact_path})"),
        };
        let _ = writeln!(out, "  handler  {handler}");
        if !hook.args.is_empty() {
            let _ = writeln!(out, "  args     {}", hook.args.join(" "));
        }
        let _ = writeln!(out, "  targets  {}", hook.targets.iter().map(|t| t.name()).collect::<Vec<_>>().join(", "));
        let mut tools: Vec<String> = hook.tools.iter().map(|s| s.name().to_string()).collect();
        tools.extend(hook.native_tools.iter().map(|n| format!("{}:{}", n.target, n.name)));
        tools.extend(hook.mcp_tools.iter().map(|m| m.written()));
        if !tools.is_empty() {
            let _ = writeln!(out, "  tools    {}", tools.join(", "));
        }
        if !hook.sources.is_empty() {
            let _ = writeln!(out, "  sources  {}", hook.sources.join(", "));
        }
        if let Timeout::Seconds(seconds) = hook.timeout {
            let _ = writeln!(out, "  timeout  {seconds} s");
        }
        if hook.fail_closed {
            let _ = writeln!(out, "  failure  blocks the tool (failClosed)");
        }
        if let Some(bytes) = hook.max_input_bytes {
            let _ = writeln!(out, "  input    at most {bytes} bytes (maxInputBytes)");
        }
        if hook.run_async {
            let _ = writeln!(out, "  async    the host goes on without waiting for it");
        }
        if let Some(message) = &hook.status_message {
            let _ = writeln!(out, "  status   {message}");
        }
        if let Some(family) = hook.event.route() {
            let _ = writeln!(out, "  route    {}", runtime_words(hook));
            let _ = writeln!(out, "  payload  {}", family.payload.join(", "));
        }
        for plan in plans {
            let _ =
                writeln!(out, "  {:<w$}{}", plan.target.name(), delivery_line(hook, &plan.delivery), w = HOST_COLUMN);
            match &plan.delivery {
                Delivery::Native { warm: Some(WarmRun::Answers), hooks_module, .. } => {
                    let _ = writeln!(
                        out,
                        "  {:<w$}answered by the plugin's warm server ({}): an `mcp_tool` entry calls its `{}` tool, no process",
                        "",
                        crate::pipeline::emit::shared::server_name(&bundle.plugin.name),
                        crate::pipeline::emit::shared::HOOK_TOOL,
                        w = HOST_COLUMN
                    );
                    if let Some(ModuleRun::Declined(why)) = hooks_module {
                        let _ = writeln!(out, "  {:<w$}not in the hooks module: {why}", "", w = HOST_COLUMN);
                    }
                }
                Delivery::Native { hooks_module: Some(ModuleRun::Runs), command, .. } => {
                    let _ =
                        writeln!(out, "  {:<w$}runs in the hooks module, which imports {command}", "", w = HOST_COLUMN);
                    let beside = in_module(bundle, plan.target).saturating_sub(1);
                    if beside > 0 {
                        let _ = writeln!(
                            out,
                            "  {:<w$}shares the host's hooks worker with {beside} other hook(s): one that spins fails them all (observed)",
                            "",
                            w = HOST_COLUMN
                        );
                    }
                }
                Delivery::Native { hooks_module: Some(ModuleRun::Declined(why)), command, .. } => {
                    let _ = writeln!(out, "  {:<w$}runs {command}", "", w = HOST_COLUMN);
                    let _ = writeln!(out, "  {:<w$}{}", "", windows_line(plan.target, command), w = HOST_COLUMN);
                    let _ = writeln!(out, "  {:<w$}a command, not in the hooks module: {why}", "", w = HOST_COLUMN);
                }
                Delivery::Native { command, warm, .. } => {
                    if let Some(WarmRun::Declined(why)) = warm {
                        let _ = writeln!(out, "  {:<w$}not answered by the warm server: {why}", "", w = HOST_COLUMN);
                    }
                    let combining = &combinings[&plan.target];
                    if let Some(combined) = combining.command_of(&hook.id) {
                        let others: Vec<&str> =
                            combined.members.iter().filter(|m| m.hook_id != hook.id).map(|m| m.name.as_str()).collect();
                        let _ = writeln!(
                            out,
                            "  {:<w$}runs in one process per call with {} ({}), each by its own matcher: {}",
                            "",
                            others.join(", "),
                            combined.wrapper,
                            combined.command,
                            w = HOST_COLUMN
                        );
                        let line = windows_line(plan.target, &combined.command);
                        let _ = writeln!(out, "  {:<w$}{line}", "", w = HOST_COLUMN);
                        continue;
                    }
                    let _ = writeln!(out, "  {:<w$}runs {command}", "", w = HOST_COLUMN);
                    if !crate::hosts::table(plan.target).hooks.as_ref().is_some_and(|s| s.in_process()) {
                        let _ = writeln!(out, "  {:<w$}{}", "", windows_line(plan.target, command), w = HOST_COLUMN);
                    }
                    if let Some(why) = combining.alone.get(&hook.id) {
                        let _ = writeln!(
                            out,
                            "  {:<w$}a process of its own, not shared with the other hooks of its event: {why}",
                            "",
                            w = HOST_COLUMN
                        );
                    }
                }
                Delivery::Absent { .. } => {}
            }
        }
    }
    out
}

/// How many hooks run in `target`'s hooks module.
fn in_module(bundle: &Bundle, target: Target) -> usize {
    bundle
        .plans
        .iter()
        .flat_map(|plan| &plan.targets)
        .filter(|t| {
            t.target == target && matches!(t.delivery, Delivery::Native { hooks_module: Some(ModuleRun::Runs), .. })
        })
        .count()
}

/// What the host runs on Windows (D17): its own key's command, or the same entry, and where that
/// knowledge comes from.
fn windows_line(target: crate::vocabulary::target::Target, command: &crate::pipeline::plan::HostCommand) -> String {
    let windows = &crate::hosts::table(target).hooks.as_ref().expect("planned hosts have hooks").windows;
    let proof = windows.proof.word();
    match &command.windows {
        Some(keyed) => format!("on Windows runs {} (its `{}`; {proof})", keyed.command, keyed.key),
        None if !command.args.is_empty() => format!("on Windows the same, through no shell ({proof})"),
        None => format!("on Windows the same command, which its shells there parse ({proof})"),
    }
}

fn delivery_line(hook: &Hook, delivery: &Delivery) -> String {
    match delivery {
        Delivery::Native {
            native_event,
            matcher,
            timeout_seconds,
            host_default_timeout_seconds,
            fail_closed,
            route_budget,
            skipped_selectors,
            ..
        } => {
            let mut line = native_event.clone();
            if matches!(delivery, Delivery::Native { shared: true, .. }) {
                line.push_str(" (forwarded to the shared runtime)");
            }
            if hook.event.accepts_tools() {
                let _ = write!(line, "  matcher {}", matcher.as_deref().unwrap_or("(every tool)"));
            } else if let Some(matcher) = matcher {
                let _ = write!(line, "  matcher {matcher}");
            }
            let in_module = matches!(delivery, Delivery::Native { hooks_module: Some(ModuleRun::Runs), .. });
            let timeout = match (timeout_seconds, host_default_timeout_seconds) {
                (Some(seconds), _) => format!("{seconds} s"),
                (None, Some(default)) if in_module => format!("the hooks module's budget ({default} s)"),
                (None, Some(default)) => format!("host default ({default} s)"),
                (None, None) => "host default".to_string(),
            };
            let _ = write!(line, "  timeout {timeout}");
            if let Some(budget) = route_budget {
                let _ = write!(line, "  budget {} ms ({})", budget.ms, budget.from.words());
            }
            match fail_closed {
                Some(_) if in_module => {
                    line.push_str(
                        "  fail-closed (the module denies; its .catch refuses what the runtime cannot catch)",
                    );
                }
                Some(how) if how.entry.is_some() => {
                    let keys: Vec<String> = how.entry.iter().flatten().map(|(k, v)| format!("{k}: {v}")).collect();
                    let _ = write!(line, "  fail-closed ({}, and exit {} from the wrapper)", keys.join(", "), how.exit);
                }
                Some(how) => {
                    let _ = write!(line, "  fail-closed (exit {} from the wrapper)", how.exit);
                }
                None => {}
            }
            if !skipped_selectors.is_empty() {
                let _ = write!(line, "  without {} (onMissingSelector: 'skip-selector')", skipped_selectors.join("; "));
            }
            if let Delivery::Native { detached: true, .. } = delivery {
                line.push_str("  async (its wrapper answers at once and runs the handler detached)");
            }
            if let Delivery::Native { entry_options, .. } = delivery {
                for (key, value) in entry_options {
                    let _ = write!(line, "  {key}: {value}");
                }
            }
            line
        }
        Delivery::Absent { reason } => format!("not delivered: {reason}"),
    }
}

/// Per host a hook is planned for, which hooks share a command (the same decision emit places).
fn combinings(bundle: &Bundle) -> std::collections::BTreeMap<Target, crate::pipeline::plan::combined::Combining> {
    let in_order = bundle.normalised.hooks_in_document_order();
    let separate = bundle.normalised.separate_commands;
    let planned: std::collections::BTreeSet<Target> =
        bundle.plans.iter().flat_map(|plan| plan.targets.iter().map(|t| t.target)).collect();
    planned
        .into_iter()
        .map(|target| (target, crate::pipeline::plan::combined::combine(&bundle.plans, &in_order, target, separate)))
        .collect()
}

/// The stable JSON document of `inspect --json`: keys sorted, hooks by id; `--hooks` adds every hook,
/// `--routes` the event routes among them (each with its plan per host, a route's budget included).
pub fn to_json(bundle: &Bundle, filter: Option<Target>, with_hooks: bool, with_routes: bool) -> Value {
    let shown = shown_hooks(bundle, filter);
    let combinings = combinings(bundle);
    let to_value = |(hook, plans): &(&Hook, Vec<&TargetPlan>)| {
        let mut value = serde_json::to_value(hook).expect("hooks serialise");
        let hosts = plans
            .iter()
            .map(|plan| {
                let mut value = serde_json::to_value(plan).expect("plans serialise");
                let combining = combinings.get(&plan.target);
                if let Some(combined) = combining.and_then(|c| c.command_of(&hook.id)) {
                    value["combinedCommand"] = json!(combined.wrapper);
                } else if let Some(why) = combining.and_then(|c| c.alone.get(&hook.id)) {
                    value["ownProcess"] = json!(why);
                }
                value
            })
            .collect();
        value["hosts"] = Value::Array(hosts);
        value
    };
    let hooks: Vec<Value> = shown.iter().map(to_value).collect();
    let mut document = json!({
        "configFile": bundle.config_file,
        "plugin": bundle.plugin,
        "targets": bundle.normalised.targets,
        "payloads": bundle.normalised.payloads,
        "hookCount": hooks.len(),
    });
    if !bundle.mcp.is_empty() {
        document["mcpServers"] = serde_json::to_value(&bundle.mcp).expect("plans serialise");
    }
    if !bundle.parts.is_empty() {
        document["parts"] = serde_json::to_value(&bundle.parts).expect("plans serialise");
    }
    if with_hooks {
        document["hooks"] = Value::Array(hooks);
    }
    if with_routes {
        document["routes"] = shown.iter().filter(|(hook, _)| hook.event.route().is_some()).map(to_value).collect();
    }
    document
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_host_column_holds_every_target_name_and_a_space() {
        let longest = crate::vocabulary::target::Target::names().map(str::len).max().unwrap();
        assert_eq!(super::HOST_COLUMN, longest + 1);
    }
}
