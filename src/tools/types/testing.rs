//! agent-bundle's test kit (`#agent-bundle/testing`): what an author's own tests (vitest, `node
//! --test`) import to run a handler or an event route as a host's wrapper would, on an envelope the
//! host sent, without building. `cargo agent-bundle types` writes it beside the declarations:
//!
//! - `agent-bundle/testing.mjs`, the kit itself: the hook runtime's core (the very text every
//!   wrapper runs, [`RUNTIME_CORE_SOURCE`]), OpenCode's entry module's making of an envelope of its
//!   hook arguments (cut from [`OPENCODE_ENTRY_SOURCE`]), the contract of every host and event (made
//!   by [`test_contract`], the function the wrapper emitter uses) and the kit's own calls
//!   (`testing.mjs` here), which hand those to the core;
//! - `agent-bundle/testing.d.mts`, its declarations (beside the module, where TypeScript looks), tied to the handler and route types of
//!   `agent-bundle/index.d.ts`;
//! - `@agent-bundle/runtime/index.mjs`, the module the build provides a route's JSX with
//!   ([`AGENT_RUNTIME`]), for a test runner to resolve `@agent-bundle/runtime` to.
//!
//! A bundle's package.json maps `#agent-bundle/testing` to the kit by its `imports` (Node and vitest
//! resolve it at run time, TypeScript finds the declarations by the same entry): [`package_imports`].

use serde_json::{Value, json};

use crate::hosts;
use crate::pipeline::bundle::AGENT_RUNTIME;
use crate::pipeline::emit::{RUNTIME_CORE_SOURCE, entry_source, test_contract};
use crate::vocabulary::canonical::CanonicalEvent;
use crate::vocabulary::family::FAMILIES;
use crate::vocabulary::hook_event::HookEvent;
use crate::vocabulary::target::Target;

/// The name tests import the kit by.
pub const KIT_IMPORT: &str = "#agent-bundle/testing";

/// The kit's files under the types folder: its module, its declarations, and the route JSX runtime.
pub const KIT_MODULE: &str = "agent-bundle/testing.mjs";
pub const KIT_DECLARATIONS: &str = "agent-bundle/testing.d.mts";
pub const JSX_RUNTIME_MODULE: &str = "@agent-bundle/runtime/index.mjs";

/// The kit's own calls: the part of the kit module after the core and the data.
const KIT_SOURCE: &str = include_str!("testing.mjs");

/// The package.json `imports` entry that maps [`KIT_IMPORT`] to the kit's module, for Node and test
/// runners; TypeScript finds its declarations beside it ([`KIT_DECLARATIONS`], `.d.mts` for `.mjs`).
/// One path and no conditions: a JSON writer that sorts keys cannot put `default` before `types`.
pub fn package_imports() -> Value {
    json!({ KIT_IMPORT: format!("./{}/{KIT_MODULE}", crate::pipeline::types::TYPES_DIR) })
}

/// The kit module's text.
pub fn kit_module() -> String {
    let mut out = super::header();
    out.push_str(
        "// agent-bundle's test kit, imported as `#agent-bundle/testing` (the bundle's package.json maps\n\
         // it): a test runs a handler or an event route as a host's wrapper would, without building.\n\
         // In order: the contract of every host and event (KIT_HOSTS, made by the function that makes\n\
         // wrappers' contracts), the hook runtime's core (the very text every wrapper runs, its exports\n\
         // kept inside this module), each in-process host's entry module's making of an envelope of\n\
         // its hook arguments (OpenCode's plugin, Pi's extension), and the kit's own calls.\n\n",
    );
    out.push_str("const KIT_HOSTS = ");
    out.push_str(&hosts_data());
    out.push_str(";\n\n");
    // The core's exports are the wrappers' API, not the kit's: the kit exports only its own calls.
    out.push_str(&RUNTIME_CORE_SOURCE.replace("\nexport ", "\n"));
    out.push('\n');
    out.push_str(&recorded_envelope_sources());
    out.push('\n');
    out.push_str(KIT_SOURCE);
    out
}

/// `@agent-bundle/runtime` as the build provides it to a route's JSX.
pub fn jsx_runtime_module() -> String {
    let mut out = super::header();
    out.push_str(
        "// The module agent-bundle's build provides for `@agent-bundle/runtime` and its JSX entries, for a\n\
         // test runner to resolve them to when it runs a route (see the bundle's vitest.config.ts).\n",
    );
    out.push_str(AGENT_RUNTIME);
    out
}

/// Per host with hooks: its name, its tool identities (once), the contract of each config event
/// (`events`) and route family (`routes`) it has, a tool event's `tools` marked `true` (the kit puts
/// the host's identities there), and why it lacks the others.
fn hosts_data() -> String {
    let mut lines = Vec::new();
    for target in Target::ALL.into_iter().filter(|t| hosts::table(*t).has_hooks()) {
        let table = hosts::table(target);
        let surface = table.hooks.as_ref().expect("has hooks");
        let tools = json!(table.tool_identities());
        let mut host = json!({
            "host": format!("{} {}", table.host, table.host_version),
            "tools": tools,
            "events": {},
            "routes": {},
            "unsupported": { "events": {}, "routes": {} },
            // An in-process host's recorded calls are its hook arguments, which its entry module makes
            // envelopes of (RECORDED_ENVELOPES).
            "hookArguments": surface.entry_module.is_some(),
        });
        let events = CanonicalEvent::ALL.into_iter().map(HookEvent::Config);
        for event in events.chain(FAMILIES.into_iter().map(HookEvent::Route)) {
            let group = if event.route().is_some() { "routes" } else { "events" };
            match test_contract(table, event) {
                Ok(mut contract) => {
                    if let Some(own) = contract.get_mut("tools") {
                        assert_eq!(*own, tools, "a tool event's tools are its host's");
                        *own = json!(true);
                    }
                    host[group][event.name()] = contract;
                }
                Err(reason) => host["unsupported"][group][event.name()] = json!(reason),
            }
        }
        lines.push(format!("  {}: {}", json!(target.name()), crate::vocabulary::json::compact_value(&host)));
    }
    format!("{{\n{}\n}}", lines.join(",\n"))
}

/// Each in-process host's entry module's making of an envelope of its hook arguments (`envelopeOf`
/// and `AgentBundle.recordedEnvelope`), cut from the module's own text: `RECORDED_ENVELOPES`, by host.
fn recorded_envelope_sources() -> String {
    let mut hosts = Vec::new();
    let in_process = Target::ALL.into_iter().filter(|t| hosts::table(*t).has_hooks());
    for (target, source) in in_process.filter_map(|t| Some((t, entry_source(t)?))) {
        let piece = |start: &str, end: &str| -> &'static str {
            let at = source.find(start).unwrap_or_else(|| panic!("{target}'s entry module has {start}"));
            let length = source[at..].find(end).expect("the piece ends") + end.len();
            &source[at..at + length]
        };
        let envelope_of = piece("\nfunction envelopeOf(", "\n}\n");
        let recorded = piece("\nAgentBundle.recordedEnvelope = ", "\n};\n");
        hosts.push(format!(
            "  {}: (() => {{\n    const AgentBundle = {{}};\n{envelope_of}{recorded}    return AgentBundle.recordedEnvelope;\n  }})(),\n",
            json!(target.name())
        ));
    }
    format!(
        "// ---------------------------------------------------------------------------------------------\n\
         // Each in-process host's entry module's envelope of a call, from its hook arguments (their very text).\n\
         const RECORDED_ENVELOPES = {{\n{}}};\n",
        hosts.concat()
    )
}

/// `agent-bundle/testing.d.mts`.
pub fn kit_declarations() -> String {
    let mut out = super::header();
    out.push_str(include_str!("testing.d.mts"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kit_holds_the_core_and_each_entry_modules_envelope_making() {
        let kit = kit_module();
        assert!(kit.contains("function decodeEnvelope(contract, envelope)"));
        assert!(!kit.contains("\nexport async function decide("), "the core's exports stay inside the kit");
        assert!(kit.contains("\nfunction envelopeOf(native, args, directory) {"));
        assert!(kit.contains("\nAgentBundle.recordedEnvelope = (native, recorded, directory) => {"));
        assert!(kit.contains("  \"pi\": (() => {"), "Pi's extension's envelopes too");
        assert!(kit.contains("\"opencode\": {"), "every host with hooks");
    }
}
