//! One process per tool call (D18): where a host would start several of the plugin's command hooks
//! for one call, the artifact gives it one command that runs them all, each judged by its own
//! matcher, deadline and failure policy, answering as the host combines separate hooks (the
//! runtime's `runCombined`). This decides, per host, which hooks share a command and why the others
//! stay their own: a pure function of the settled plan, which emit and `inspect` both call.
//!
//! Hooks share when they are command hooks of one native event with handler modules that run
//! synchronously, and their matchers may take one call (they overlap, directly or through others).
//! A prebuilt handler is a program of its own; an async hook is not waited for, while the others'
//! command is; a route of the shared runtime is answered by the plugin's server, which its wrapper
//! asks: each stays its own command, and `inspect` says why. A hook no other one of its event runs
//! beside needs no sharing and gets no reason. The command's status line (an entry option) holds
//! each of its hooks' distinct lines.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Delivery, HookPlan, ModuleRun, matcher};
use crate::hosts::{self, layout};
use crate::pipeline::normalise::{Handler, Hook};
use crate::vocabulary::target::Target;

/// One command that runs several hooks of one native event on one host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CombinedCommand {
    pub native_event: String,
    /// The hooks it runs, in the hook document's order, each with its own matcher.
    pub members: Vec<Member>,
    /// The envelope key the members' matchers compare (the tool's name, or the session's source).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_key: Option<String>,
    /// Every member's matcher as one; `None` when one of them fires for every call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matcher: Option<String>,
    /// Seconds written into the host's document: the longest member's effective timeout, when any
    /// member declares one; `None` leaves the host's default, which is then every member's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<u32>,
    /// The longest of the members' effective timeouts; on a host that runs hooks in turn, their sum.
    pub effective_timeout_seconds: u32,
    /// The host runs several hooks one after another, stopping at a denial: so does the command.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_turn: bool,
    /// The host blocks on any hook's non-zero exit on this event: so does the command, on any of
    /// its hooks' failures.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub any_failure_blocks: bool,
    /// Entry keys: the members' entry options (each distinct status line once) and every fail-closed member's
    /// failure keys, so that the host blocks on a failure of the command as on any of theirs.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub own_keys: BTreeMap<String, serde_json::Value>,
    /// The wrapper the command runs (it imports each member's wrapper module).
    pub wrapper: String,
    /// The exit of a failure of the command itself: a fail-closed member's blocking exit, else 1.
    pub failure_exit: i32,
    pub command: super::HostCommand,
}

/// A hook of a combined command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    pub hook_id: String,
    pub name: String,
    /// Its own matcher, which the command applies to each call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matcher: Option<String>,
    /// Its wrapper module.
    pub wrapper: String,
}

/// How one host's hooks are run: the combined commands, and for each hook that could not share a
/// command with the others of its event, why.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Combining {
    pub commands: Vec<CombinedCommand>,
    /// Per hook id, why it runs as a command of its own beside the combined ones.
    pub alone: BTreeMap<String, String>,
}

impl Combining {
    /// The combined command that runs hook `hook_id`, if one does.
    pub fn command_of(&self, hook_id: &str) -> Option<&CombinedCommand> {
        self.commands.iter().find(|c| c.members.iter().any(|m| m.hook_id == hook_id))
    }
}

/// Which hooks of `hooks` (in the hook document's order) share a command on `target`, from the
/// settled `plans`.
/// Nothing is combined when the bundle says `combineCommands: false` (`separate`).
pub fn combine(plans: &[HookPlan], hooks: &[&Hook], target: Target, separate: bool) -> Combining {
    let table = hosts::table(target);
    if separate {
        return Combining::default();
    }
    let Some(surface) = table.hooks.as_ref().filter(|s| !s.in_process()) else { return Combining::default() };
    // Per native event, the command hooks in document order, each with why it cannot share (None: it can).
    let mut by_event: BTreeMap<&str, Vec<Entry<'_>>> = BTreeMap::new();
    for hook in hooks {
        for (_, delivery) in super::delivered(plans, &hook.id, &[target]) {
            let Delivery::Native { native_event, hooks_module, .. } = delivery else { continue };
            // Answered in the host's hooks module or by the plugin's warm server: no command to share.
            if matches!(hooks_module, Some(ModuleRun::Runs)) || super::warm::answers(delivery) {
                continue;
            }
            by_event.entry(native_event.as_str()).or_default().push((hook, delivery, unshareable(hook, delivery)));
        }
    }
    let mut combining = Combining::default();
    let mut commands: Vec<(usize, CombinedCommand)> = Vec::new();
    for (native_event, entries) in by_event {
        let matchers: Vec<Option<Vec<String>>> =
            entries.iter().map(|(_, delivery, _)| matcher_of(delivery).map(matcher::alternatives)).collect();
        let overlap = |i: usize, j: usize| overlap(matchers[i].as_deref(), matchers[j].as_deref());
        // Only hooks that may run on one call need to share: those whose matchers overlap, with a
        // chain of others between them.
        let mut component: Vec<usize> = (0..entries.len()).collect();
        for i in 0..entries.len() {
            for j in 0..i {
                if entries[i].2.is_none() && entries[j].2.is_none() && overlap(i, j) {
                    let (a, b) = (find(&mut component, i), find(&mut component, j));
                    component[a.max(b)] = a.min(b);
                }
            }
        }
        let overlapping = |i: usize| (0..entries.len()).any(|j| j != i && overlap(i, j));
        let mut groups: BTreeMap<usize, Vec<(&Hook, &Delivery)>> = BTreeMap::new();
        for (i, (hook, delivery, reason)) in entries.iter().enumerate() {
            match reason {
                Some(reason) if overlapping(i) => {
                    combining.alone.insert(hook.id.clone(), reason.clone());
                }
                Some(_) => {}
                None => groups.entry(find(&mut component, i)).or_default().push((hook, delivery)),
            }
        }
        for members in groups.into_values().filter(|members| members.len() > 1) {
            let first = hooks.iter().position(|h| h.id == members[0].0.id).expect("members are the hooks'");
            commands.push((first, command(table, surface, native_event, &members)));
        }
    }
    commands.sort_by_key(|(first, _)| *first);
    combining.commands = commands.into_iter().map(|(_, command)| command).collect();
    combining
}

/// The representative of `i`'s set (path halving).
fn find(component: &mut [usize], mut i: usize) -> usize {
    while component[i] != i {
        component[i] = component[component[i]];
        i = component[i];
    }
    i
}

fn matcher_of(delivery: &Delivery) -> Option<&str> {
    match delivery {
        Delivery::Native { matcher, .. } => matcher.as_deref(),
        Delivery::Absent { .. } => None,
    }
}

/// Whether two matchers (their alternatives; `None` takes every call) may take one call: either
/// takes every call, or they share an alternative, or either has a wildcard (taken as overlapping
/// everything: the cost is only a shared process).
fn overlap(a: Option<&[String]>, b: Option<&[String]>) -> bool {
    let (Some(a), Some(b)) = (a, b) else { return true };
    a.iter().chain(b).any(|alternative| alternative.contains(".*")) || a.iter().any(|x| b.contains(x))
}

/// A command hook of one native event, with why it cannot share (`None`: it can).
type Entry<'a> = (&'a Hook, &'a Delivery, Option<String>);

/// What a member's delivery says that its command needs.
struct Facts<'a> {
    matcher: &'a Option<String>,
    timeout_seconds: Option<u32>,
    effective_timeout_seconds: u32,
    fail_closed: &'a Option<hosts::FailClosed>,
    wrapper: &'a Option<String>,
    entry_options: &'a BTreeMap<String, serde_json::Value>,
}

/// Why `hook` cannot share a command with the others of its event, or `None` when it can.
fn unshareable(hook: &Hook, delivery: &Delivery) -> Option<String> {
    let Delivery::Native { shared, .. } = delivery else { return None };
    if matches!(hook.handler, Handler::Prebuilt { .. }) {
        return Some("its handler is prebuilt: a program of its own, which the combined command cannot load".into());
    }
    // Detached by its wrapper, or under the host's own async key: either way not waited for.
    if hook.run_async {
        return Some("it is async: the host does not wait for it, and it waits for the combined command".into());
    }
    if *shared {
        return Some("it renders in the plugin's shared runtime, which its own wrapper asks".into());
    }
    None
}

/// The command for `members` (at least two, in document order) of `native_event` on `table`'s host.
fn command(
    table: &hosts::HostTable,
    surface: &hosts::HookSurface,
    native_event: &str,
    members: &[(&Hook, &Delivery)],
) -> CombinedCommand {
    let natives: Vec<Facts<'_>> = members
        .iter()
        .map(|(_, delivery)| match delivery {
            Delivery::Native {
                matcher,
                timeout_seconds,
                effective_timeout_seconds,
                fail_closed,
                wrapper,
                entry_options,
                ..
            } => Facts {
                matcher,
                timeout_seconds: *timeout_seconds,
                effective_timeout_seconds: *effective_timeout_seconds,
                fail_closed,
                wrapper,
                entry_options,
            },
            Delivery::Absent { .. } => unreachable!("members are delivered"),
        })
        .collect();
    // Every member's alternatives in one matcher, unless one takes every call.
    let matcher = natives
        .iter()
        .map(|n| n.matcher.as_deref().map(matcher::alternatives))
        .collect::<Option<Vec<Vec<String>>>>()
        .and_then(|all| matcher::render_matcher(&all.concat()));
    // In turn, each member has its own timeout after the previous one's end, as the host gives it.
    let in_turn = surface.several_hooks == hosts::SeveralHooks::InTurn;
    let effective_timeout_seconds = match in_turn {
        true => natives
            .iter()
            .map(|n| n.effective_timeout_seconds)
            .sum::<u32>()
            .min(crate::vocabulary::canonical::MAX_TIMEOUT_SECONDS),
        false => natives.iter().map(|n| n.effective_timeout_seconds).max().expect("at least two members"),
    };
    let timeout_seconds =
        (in_turn || natives.iter().any(|n| n.timeout_seconds.is_some())).then_some(effective_timeout_seconds);
    // Entry options (a status line; async hooks do not share): each distinct text once, joined.
    let mut own_keys: BTreeMap<String, serde_json::Value> = BTreeMap::new();
    for native in &natives {
        for (key, value) in native.entry_options {
            match (own_keys.get_mut(key), value) {
                (Some(serde_json::Value::String(text)), serde_json::Value::String(more)) => {
                    if !text.split("; ").any(|part| part == more) {
                        text.push_str("; ");
                        text.push_str(more);
                    }
                }
                (Some(_), _) => {}
                (None, _) => {
                    own_keys.insert(key.clone(), value.clone());
                }
            }
        }
    }
    for native in &natives {
        if let Some(entry) = native.fail_closed.as_ref().and_then(|how| how.entry.as_ref()) {
            own_keys.extend(entry.iter().map(|(key, value)| (key.clone(), value.clone())));
        }
    }
    let wrapper = layout::combined_wrapper_path(native_event, table.target, surface.folder.as_deref());
    let mapping = table.mapping_for(members[0].0.event, false).ok();
    CombinedCommand {
        native_event: native_event.to_string(),
        members: members
            .iter()
            .zip(&natives)
            .map(|((hook, _), native)| Member {
                hook_id: hook.id.clone(),
                name: hook.name.clone(),
                matcher: native.matcher.clone(),
                wrapper: native.wrapper.clone().expect("a handler module has a wrapper"),
            })
            .collect(),
        match_key: mapping.and_then(|m| surface.matcher_subject(m)).map(|(key, _)| key.to_string()),
        matcher,
        timeout_seconds,
        effective_timeout_seconds,
        in_turn,
        any_failure_blocks: mapping.and_then(|m| m.fail_closed.as_ref()).is_some_and(|how| how.any_failure_blocks),
        own_keys,
        command: super::command::combined_command(surface, &wrapper),
        failure_exit: natives.iter().find_map(|n| n.fail_closed.as_ref().map(|how| how.exit)).unwrap_or(1),
        wrapper,
    }
}
