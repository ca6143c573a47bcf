//! The wrapper a host runs for one hook: a small ESM file with the host contract baked in, which
//! hands stdin to the shared runtime and imports the compiled handler.

use serde_json::json;

use crate::hosts::{EventMapping, ExtraSupport, ExtraWrite, HostTable, InputField, PartSupport, answer};
use crate::pipeline::normalise::Hook;
use crate::pipeline::plan::combined::CombinedCommand;
use crate::pipeline::plan::{ANSWER_FD, Delivery, ModuleRun, deadline_ms};
use crate::vocabulary::canonical::{Extra, ResultPart};
use crate::vocabulary::hook_event::HookEvent;
use crate::vocabulary::target::Target;

/// The shared runtime, embedded in the binary and written next to the wrappers: the runtime's core
/// (the decision, plain ECMAScript, one file per concern under `runtime/`, joined by
/// [`runtime_core!`]) followed by its Node process shell, as one file, so a hook loads one runtime
/// module. The shell calls the core's functions by name; its `import`s are hoisted.
pub const RUNTIME_SOURCE: &str = concat!(runtime_core!("runtime/"), include_str!("runtime.mjs"));
/// The runtime's core alone, for hosts that run hooks without Node: written into Claude Code mod
/// folders. The same text as the start of [`RUNTIME_SOURCE`].
pub const RUNTIME_CORE_SOURCE: &str = runtime_core!("runtime/");
/// The entry module OpenCode loads (its table's `entryModule`), which runs the hooks in its process.
pub const OPENCODE_ENTRY_SOURCE: &str = include_str!("opencode-plugin.mjs");
/// The plugin Amp loads (its table's `entryModule`), which runs the hooks in its plugin runtime.
pub const AMP_ENTRY_SOURCE: &str = include_str!("amp-plugin.mjs");
/// The extension Pi loads (its table's `entryModule`), which runs the hooks in its process.
pub const PI_ENTRY_SOURCE: &str = include_str!("pi-extension.mjs");
/// The module Cline CLI's hook files import (its table's `entryModule`), which runs the hooks in the
/// hook file's process and makes Cline's answer.
pub const CLINE_ENTRY_SOURCE: &str = include_str!("cline-plugin.mjs");
/// A hook file Cline CLI runs from a hooks folder (its table's `hookFiles`): the same text under each
/// event's name, which runs the event's hooks of every agent-bundle plugin placed beside it.
pub const CLINE_HOOK_FILE_SOURCE: &str = include_str!("cline-hook-file.mjs");

/// The text of the entry module an in-process host loads, by host: each carries its host's calls to
/// the one runtime (`inProcessHooks`), and makes its envelopes of the host's arguments.
const ENTRY_SOURCES: [(Target, &str); 4] = [
    (Target::Amp, AMP_ENTRY_SOURCE),
    (Target::Cline, CLINE_ENTRY_SOURCE),
    (Target::Opencode, OPENCODE_ENTRY_SOURCE),
    (Target::Pi, PI_ENTRY_SOURCE),
];

/// The entry module `target` loads, if it runs hooks in its own process (a host another host's plugin
/// serves loads that plugin's).
pub fn entry_source(target: Target) -> Option<&'static str> {
    let built = crate::hosts::table(target).built_as();
    ENTRY_SOURCES.iter().find(|(t, _)| *t == built).map(|(_, source)| *source)
}
/// Its artifact path.
pub use crate::hosts::layout::RUNTIME_PATH;

/// Reads of fd 0 by number, as bundled code spells them (`/dev/stdin` and `process.stdin` hold the word).
const STDIN_BY_FD: &[&str] = &["readFileSync(0", "readSync(0", "readFile(0", "createReadStream(null, { fd: 0"];

/// The doors to fd 1 besides node:fs and process.stdout that a hook's code may open, each of which the
/// runtime keeps off the answer channel only where the code may use it: the module it patches costs
/// a load on every call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Doors {
    /// Child processes, whose inherited stdout would be fd 1.
    pub child_processes: bool,
    /// Worker threads, whose own node:fs writes to fd 1 directly where the command hands nothing
    /// over (an exec form, a Windows form).
    pub worker_threads: bool,
    /// Reading stdin itself (`readFileSync(0)`, `process.stdin`), as a hook script does: the wrapper
    /// has read it to the end, so the runtime serves the envelope it read to those reads again.
    pub stdin: bool,
}

impl Doors {
    /// Both doors, for code the build cannot read: a package shipped whole.
    pub const ALL: Doors = Doors { child_processes: true, worker_threads: true, stdin: true };

    /// What bundled code may open: a textual test over the bundle (a false positive only costs the
    /// module's load). `process.getBuiltinModule` loads any builtin by a name the text need not hold.
    pub fn of(code: &str) -> Doors {
        let any = code.contains("getBuiltinModule");
        Doors {
            child_processes: any || code.contains("child_process"),
            worker_threads: any || code.contains("worker_threads"),
            stdin: code.contains("stdin") || STDIN_BY_FD.iter().any(|read| code.contains(read)),
        }
    }

    /// Either's doors.
    pub fn or(self, other: Doors) -> Doors {
        Doors {
            child_processes: self.child_processes || other.child_processes,
            worker_threads: self.worker_threads || other.worker_threads,
            stdin: self.stdin || other.stdin,
        }
    }
}

/// What a wrapper's contract says of the plugin itself.
#[derive(Clone, Copy)]
pub struct PluginFacts<'a> {
    pub name: &'a str,
    /// Each of the plugin's own MCP servers placed on the wrapper's host, with the host's name for a
    /// tool of it (`{tool}` standing for the tool's own).
    pub mcp_servers: &'a [(&'a str, &'a str)],
}

/// The contract object a wrapper passes to the runtime: the plan's facts for this hook on this host
/// and the host table's slice for its event, with what happens to each part of a result decided
/// here ([`HostTable::result_part`]), so the runtime only carries it out. `delivery` is the plan's
/// for this host (its timeout, failure policy and route budget); `shared`, for a route forwarded to
/// the shared runtime, is the artifact epoch and whether it falls back. `plugin` is the plugin's
/// name and, for each of its own MCP servers placed on this host, the host's name for its tools.
pub fn contract(
    plugin: PluginFacts<'_>,
    hook: &Hook,
    table: &HostTable,
    mapping: &EventMapping,
    delivery: &Delivery,
    doors: Doors,
    shared: Option<(&str, bool)>,
) -> serde_json::Value {
    let facts = HookFacts { name: &hook.name, id: &hook.id, event: hook.event };
    contract_of(plugin, facts, table, mapping, delivery, doors, shared)
}

/// What a contract says of the hook itself besides its delivery.
#[derive(Clone, Copy)]
struct HookFacts<'a> {
    name: &'a str,
    id: &'a str,
    event: HookEvent,
}

/// The contract a test of an author's own runs a handler or route of `event` with on `table`'s
/// host (agent-bundle's test kit, `tools::types::testing`): [`contract`]'s, for a hook named after
/// its event, declared with nothing but its module, as the plan delivers one (the host's default
/// timeout, the default stdin limit, a route's budget its deadline) in a command of its own, and
/// with the host's way of failing closed (`hook.failClosed`, where the event has one), which the kit
/// keeps only for a test that asks for it. The plugin's own facts (its name, its MCP servers) are
/// the kit's to fill in. `Err`: why the host has no such event.
pub fn test_contract(table: &HostTable, event: HookEvent) -> Result<serde_json::Value, &str> {
    let mapping = table.mapping(event)?;
    let surface = table.hooks.as_ref().ok_or("the host runs no hooks")?;
    let effective_timeout_seconds = crate::pipeline::plan::effective_timeout_seconds(None, surface, mapping);
    let deadline = deadline_ms(effective_timeout_seconds);
    let delivery = Delivery::Native {
        native_event: mapping.native.clone(),
        matcher: None,
        timeout_seconds: None,
        host_default_timeout_seconds: None,
        effective_timeout_seconds,
        fail_closed: mapping.fail_closed.clone(),
        max_input_bytes: Some(crate::vocabulary::canonical::DEFAULT_MAX_INPUT_BYTES),
        shared: false,
        route_budget: event.route().map(|_| crate::pipeline::plan::route_budget(None, false, deadline)),
        wrapper: None,
        command: Default::default(),
        skipped_selectors: Vec::new(),
        hooks_module: None,
        warm: None,
        entry_options: Default::default(),
        detached: false,
    };
    let id = format!("test:{}", event.name());
    let facts = HookFacts { name: event.name(), id: &id, event };
    let plugin = PluginFacts { name: "", mcp_servers: &[] };
    Ok(contract_of(plugin, facts, table, mapping, &delivery, Doors::default(), None))
}

fn contract_of(
    plugin: PluginFacts<'_>,
    hook: HookFacts<'_>,
    table: &HostTable,
    mapping: &EventMapping,
    delivery: &Delivery,
    doors: Doors,
    shared: Option<(&str, bool)>,
) -> serde_json::Value {
    let PluginFacts { name: plugin, mcp_servers: own_servers } = plugin;
    let Delivery::Native { effective_timeout_seconds, fail_closed, route_budget, max_input_bytes, .. } = delivery
    else {
        panic!("only a delivered hook has a wrapper");
    };
    let max_input_bytes = max_input_bytes.expect("a hook with a wrapper has a stdin limit");
    let surface = table.hooks.as_ref().expect("planned hosts have hooks");
    let in_module = matches!(delivery, Delivery::Native { hooks_module: Some(ModuleRun::Runs), .. });
    let (input, parts, tools) = event_contract(table, mapping, hook.event, in_module);
    let mut hook_facts = json!({
        "name": hook.name,
        "id": hook.id,
        "event": hook.event.name(),
        "target": table.target,
        "nativeEvent": mapping.native,
        "deadlineMs": deadline_ms(*effective_timeout_seconds),
        "maxInputBytes": max_input_bytes,
        // Every host runs a wrapper's command through a shell, and the command hands the wrapper
        // the host's stdout on this descriptor (plan::ANSWER_FD).
        "answerFd": ANSWER_FD,
    });
    if let Some(how) = fail_closed {
        hook_facts["failClosed"] = json!({ "exit": how.exit });
    }
    if doors.child_processes {
        hook_facts["childProcesses"] = json!(true);
    }
    if doors.worker_threads {
        hook_facts["workerThreads"] = json!(true);
    }
    if doors.stdin {
        hook_facts["readsStdin"] = json!(true);
    }
    if let Delivery::Native { detached: true, .. } = delivery {
        hook_facts["detach"] = json!(true);
    }
    if let Some(family) = hook.event.route() {
        // The plan's budget: the runtime counts it from the delivery and has no default of its own.
        let budget = route_budget.expect("the plan gives every route a budget");
        let mut route = json!({ "family": family.name, "budgetMs": budget.ms });
        if let Some((epoch, fallback)) = shared {
            route["shared"] = json!({ "epoch": epoch, "fallback": fallback });
        }
        hook_facts["route"] = route;
    }
    let mut contract = json!({
        "hook": hook_facts,
        "host": format!("{} {}", table.host, table.host_version),
        "revision": table.revision,
        "input": input,
        "parts": parts,
        "eventNamed": { "object": answer::EVENT_NAMED_OBJECT.0, "key": answer::EVENT_NAMED_OBJECT.1 },
        "denyWhen": mapping.result.deny_when,
        "eventNameKey": surface.event_name_key,
        // Where the handler's context finds the plugin's data folder and the session's project.
        "places": {
            "plugin": plugin,
            "dataEnv": surface.places.data_env,
            "projectEnv": surface.places.project_env,
            "projectKeys": surface.places.project_keys,
        },
    });
    if let Some(key) = &mapping.pass_when_present {
        contract["passWhenPresent"] = json!(key);
    }
    if let Some(condition) = &mapping.pass_unless {
        contract["passUnless"] = json!(condition);
    }
    // The plugin's own MCP servers placed on this host: the name the host gives each one's tools
    // (`{tool}` standing for the tool's), for the handler's `mcpToolName` and the canonical tool's
    // `ownServer`. Absent when the plugin has none, so other wrappers are as they were.
    if !own_servers.is_empty() {
        let servers: serde_json::Map<String, serde_json::Value> = own_servers
            .iter()
            .map(|(server, template)| {
                let (before, after) = template.split_once("{tool}").unwrap_or((template, ""));
                let pattern = format!("^{}(?<tool>.+?){}$", regex::escape(before), regex::escape(after));
                (server.to_string(), json!({ "name": template, "match": pattern }))
            })
            .collect();
        contract["pluginMcp"] = serde_json::Value::Object(servers);
    }
    // Only a command's envelope may come from another host: a hooks module's is made by agent-bundle.
    if !surface.foreign_envelopes.is_empty() && !in_module {
        let foreign: Vec<serde_json::Value> = surface
            .foreign_envelopes
            .iter()
            .filter(|f| f.events.is_empty() || f.events.contains(&mapping.native))
            .map(|f| {
                let mut recogniser = json!({ "sender": f.sender, "present": f.present, "absent": f.absent });
                if !f.present_env.is_empty() {
                    recogniser["presentEnv"] = json!(f.present_env);
                }
                recogniser
            })
            .collect();
        if !foreign.is_empty() {
            contract["foreignEnvelopes"] = json!(foreign);
        }
    }
    if !tools.is_null() {
        contract["tools"] = tools;
    }
    // A result's `extra` answers: per name, where this host takes it on this event, or why not.
    {
        let event = hook.event;
        let extras: serde_json::Map<String, serde_json::Value> = Extra::ALL
            .iter()
            .map(|&extra| {
                let support = match table.extra_in(event, in_module, extra) {
                    ExtraSupport::Deliver(ExtraWrite::Field(path)) => json!({ "field": path }),
                    ExtraSupport::Deliver(ExtraWrite::EnvFile(variable)) => json!({ "envFile": variable }),
                    ExtraSupport::Drop(reason) => json!({ "drop": reason }),
                    ExtraSupport::Refuse(rule) => json!({ "refuse": rule }),
                };
                (extra.name().to_string(), support)
            })
            .collect();
        contract["extras"] = serde_json::Value::Object(extras);
    }
    // A config handler also gets each canonical field under its old name, for one release.
    if hook.event.route().is_none() {
        let decoded: Vec<&str> = input.as_array().into_iter().flatten().filter_map(|f| f["as"].as_str()).collect();
        let aliases: serde_json::Map<String, serde_json::Value> = crate::vocabulary::canonical::PAYLOAD_ALIASES
            .iter()
            .filter(|(_, canonical)| decoded.contains(canonical))
            .map(|(old, canonical)| ((*old).to_string(), json!(canonical)))
            .collect();
        if !aliases.is_empty() {
            contract["aliases"] = serde_json::Value::Object(aliases);
        }
    }
    contract
}

/// The part of a contract that only the host and the event decide: the envelope's fields, per part
/// of a result how the host takes it, and for a tool event how its tool names map to canonical tools
/// (`null` for other events). The same for every hook of that host and event, so it is made once
/// per process (a monorepo build has thousands of wrappers and a handful of these).
fn event_contract(table: &HostTable, mapping: &EventMapping, event: HookEvent, in_module: bool) -> EventContract {
    type Memo = std::collections::HashMap<(Target, HookEvent, bool), EventContract>;
    static MEMO: std::sync::OnceLock<std::sync::Mutex<Memo>> = std::sync::OnceLock::new();
    // Only the built-in tables are remembered (a test may hand in a table of its own).
    let memo = std::ptr::eq(table, crate::hosts::table(table.target)).then(|| MEMO.get_or_init(Default::default));
    let key = (table.target, event, in_module);
    if let Some(found) = memo.and_then(|memo| memo.lock().expect("the memo is never poisoned").get(&key).cloned()) {
        return found;
    }
    let surface = table.hooks.as_ref().expect("planned hosts have hooks");
    // A route's payload holds only its family's fields; the host's other fields are still checked.
    let input: Vec<InputField> = surface
        .input_fields(mapping)
        .map(|field| match event.route() {
            Some(family) if field.canonical.as_deref().is_some_and(|c| !family.payload.contains(&c)) => {
                InputField { canonical: None, ..field.clone() }
            }
            _ => field.clone(),
        })
        .collect();
    let parts: serde_json::Map<String, serde_json::Value> = ResultPart::ALL
        .iter()
        .map(|&part| {
            let support = match table.result_part_in(event, in_module, part) {
                PartSupport::Deliver => json!({ "write": answer::writes(&mapping.result, part) }),
                PartSupport::Drop(reason) => json!({ "drop": reason }),
                PartSupport::Refuse(reason) => json!({ "refuse": reason }),
                PartSupport::Block { reason, exit } => json!({ "block": reason, "exit": exit }),
            };
            (part.name().to_string(), support)
        })
        .collect();
    let tools = if event.accepts_tools() { json!(table.tool_identities()) } else { serde_json::Value::Null };
    let made = (json!(input), serde_json::Value::Object(parts), tools);
    if let Some(memo) = memo {
        memo.lock().expect("the memo is never poisoned").insert(key, made.clone());
    }
    made
}

/// A contract's envelope fields, result parts and tool identities.
type EventContract = (serde_json::Value, serde_json::Value, serde_json::Value);

/// Which kind of wrapper a hook gets on a host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrapperForm<'a> {
    /// A command of its own (or, on an in-process host, the module its entry module imports).
    Own,
    /// A module of the host's hooks module (the plan settled it so).
    InModule,
    /// A module of the combined command whose wrapper is `command`.
    Combined { command: &'a str },
    /// A module the plugin's warm server imports, in a worker thread of its own (`mcp_tool`).
    Served,
}

/// The wrapper file's text. `handler_specifier` is the compiled handler relative to the wrapper.
pub fn wrapper_source(
    hook: &Hook,
    table: &HostTable,
    mapping: &EventMapping,
    contract: &serde_json::Value,
    handler_specifier: &str,
    generator: &str,
    form: WrapperForm<'_>,
) -> String {
    let in_module = form == WrapperForm::InModule;
    let in_process = table.hooks.as_ref().is_some_and(|s| s.in_process());
    let header = format!(
        "// Generated by {generator}. Do not edit: `cargo agent-bundle build` rewrites this file.\n\
         // Hook {name} ({event}) for {host} {version}, native event {native}",
        name = hook.name,
        event = hook.event,
        host = table.host,
        version = table.host_version,
        native = mapping.native,
    );
    let own_file = if contract["hook"]["detach"] == json!(true) { ", import.meta.url" } else { "" };
    let contract = crate::vocabulary::json::pretty_value(contract);
    let handler = serde_json::to_string(handler_specifier).expect("strings serialise");
    if in_module {
        // The host's hooks module imports this file; a module there may not hold `import()`, so the
        // handler's bundle is imported statically.
        let host = &table.host;
        return format!(
            "{header}: run in the plugin's hooks\n\
             // module, in {host}'s own worker, through the runtime's decideInProcess.\n\
             import * as handler from {handler};\n\
             \n\
             export const contract = {contract};\n\
             \n\
             export const loadHandler = () => handler;\n"
        );
    }
    let runner = match form {
        WrapperForm::Combined { command } => Some(format!(
            "run with the other hooks\n// of this event by one process, {}, through the runtime's runCombined.",
            command.rsplit('/').next().unwrap_or(command)
        )),
        WrapperForm::Served => Some(
            "answered by the plugin's\n// own MCP server, kept warm, in a worker thread of its own (the runtime's serveWarmHook)."
                .to_string(),
        ),
        WrapperForm::Own | WrapperForm::InModule => None,
    };
    if let Some(runner) = runner {
        // The combined command (or the warm server) imports this file and has the runtime judge each
        // call with it; run by itself, it is the hook's own command, as any wrapper is.
        return format!(
            "{header}: {runner}\n\
             import {{ runAlone }} from './agent-bundle-runtime.mjs';\n\
             \n\
             export const contract = {contract};\n\
             \n\
             export const loadHandler = () => import({handler});\n\
             \n\
             // The handler's file, by which the command traces an error thrown outside its promise.\n\
             export const handlerUrl = new URL({handler}, import.meta.url).href;\n\
             \n\
             // Run by itself (by hand, or by a test), the hook answers alone, as its own command would.\n\
             await runAlone(contract, loadHandler);\n"
        );
    }
    if in_process {
        // The host's entry module imports this file and has the runtime decide each call with it.
        let host = &table.host;
        return format!(
            "{header}: run in {host}'s own\n\
             // process by the plugin's entry module, through the runtime's decideInProcess.\n\
             \n\
             export const contract = {contract};\n\
             \n\
             export const loadHandler = () => import({handler});\n"
        );
    }
    // A detached hook's wrapper starts itself again, detached: the runtime needs its file (above).
    format!(
        "{header}.\n\
         import {{ runHook }} from './agent-bundle-runtime.mjs';\n\
         \n\
         const contract = {contract};\n\
         \n\
         await runHook(contract, () => import({handler}){own_file});\n"
    )
}

/// The combined command's wrapper: it hands each member's wrapper module (to import) with its own
/// matcher to the runtime's `runCombined`.
pub fn combined_wrapper_source(table: &HostTable, command: &CombinedCommand, generator: &str) -> String {
    let names: Vec<&str> = command.members.iter().map(|m| m.name.as_str()).collect();
    let mut source = format!(
        "// Generated by {generator}. Do not edit: `cargo agent-bundle build` rewrites this file.\n\
         // {native} for {host} {version}: one process for several hooks, each judged by its own\n\
         // matcher, deadline and failure policy, answering as {host} combines separate hooks:\n\
         // {names}.\n\
         import {{ runCombined }} from './agent-bundle-runtime.mjs';\n",
        native = command.native_event,
        host = table.host,
        version = table.host_version,
        names = names.join(", "),
    );
    let facts = crate::vocabulary::json::pretty_value(&json!({
        "matchKey": command.match_key,
        "answerFd": ANSWER_FD,
        "failureExit": command.failure_exit,
        "inTurn": command.in_turn,
        "anyFailureBlocks": command.any_failure_blocks,
    }));
    source.push_str(&format!("\nawait runCombined({facts}, [\n"));
    for member in &command.members {
        let specifier = crate::io::relative_specifier(&command.wrapper, &member.wrapper);
        let specifier = serde_json::to_string(&specifier).expect("strings serialise");
        let matcher = serde_json::to_string(&member.matcher).expect("strings serialise");
        source.push_str(&format!("  {{ hook: () => import({specifier}), matcher: {matcher} }},\n"));
    }
    source.push_str("]);\n");
    source
}
