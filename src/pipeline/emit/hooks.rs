//! Placing the hooks: per hook and host it reaches, its wrapper (and, on a host with a folder of its
//! own, the copy of its bundle that folder's wrappers import), its row of the manifest's index and
//! its entry of the host's hook document. What a hook was built from and produced is kept for the
//! build state (`--explain`).

use std::collections::{BTreeMap, BTreeSet};

use crate::artifact::{ArtifactFile, IndexRow, generator};
use crate::hosts;
use crate::hosts::layout;
use crate::io::lexical_join;
use crate::io::stamp::InputSet;
use crate::pipeline::Bundle;
use crate::pipeline::bundle::Bundled;
use crate::pipeline::normalise::{Handler, Hook};
use crate::pipeline::plan::Delivery;
use crate::vocabulary::target::Target;

use super::assembly::{Assembly, Producer};
use super::documents::DocumentEntry;
use super::module::ModuleHook;
use super::relative_specifier;
use super::shared::{self, SharedRoute};
use super::wrapper::{Doors, PluginFacts, WrapperForm, combined_wrapper_source, contract, wrapper_source};
use crate::pipeline::plan::combined::{self, Combining};

/// Whether the plan settled `delivery` to run in its host's hooks module.
fn runs_in_module(delivery: &Delivery) -> bool {
    matches!(delivery, Delivery::Native { hooks_module: Some(crate::pipeline::plan::ModuleRun::Runs), .. })
}

/// What placing the hooks decided, besides the files it added.
#[derive(Default)]
pub(super) struct PlacedHooks {
    /// One row per hook and host, in the order placed.
    pub index: Vec<IndexRow>,
    /// Per hook id, what it was built from, with a digest of each.
    pub inputs: BTreeMap<String, BTreeMap<String, String>>,
    /// Per hook id, the artifact files its build produced besides its wrappers.
    pub products: BTreeMap<String, Vec<String>>,
    /// Per host, its hook document's entries, in canonical event, then id, order.
    pub entries: BTreeMap<Target, Vec<DocumentEntry>>,
    /// The routes the shared runtime serves, each with its contract per host.
    pub shared_routes: Vec<SharedRoute>,
    /// The hosts whose plugin carries the shared runtime's MCP server.
    pub shared_hosts: Vec<Target>,
    /// The host folders that got bundle copies: each also gets the runtime and the shipped packages.
    pub folders: BTreeSet<String>,
    /// Per host with a hooks module, the hooks that run there, in canonical event, then id, order.
    pub module_hooks: BTreeMap<Target, Vec<ModuleHook>>,
    /// The hooks the plugin's warm server answers, in the order placed.
    pub warm_hooks: Vec<shared::WarmHook>,
}

/// The keys of a host's entry that has the plugin's warm server answer `warm`: the entry's type, the
/// server as the host names it, the hook tool, and the hook input's fields, each a placeholder.
fn warm_entry(
    table: &hosts::HostTable,
    plugin: &str,
    warm: &shared::WarmHook,
) -> serde_json::Map<String, serde_json::Value> {
    let form = table.hooks.as_ref().and_then(|s| s.warm_server.as_ref()).expect("a host that calls the warm server");
    let server = form.server_name.replace("{plugin}", plugin).replace("{server}", &shared::server_name(plugin));
    let mut input = serde_json::Map::new();
    input.insert(shared::HOOK_ARGUMENT.into(), warm.key.clone().into());
    for key in &warm.input_keys {
        input.insert(key.clone(), form.placeholder.replace("<key>", key).into());
    }
    serde_json::Map::from_iter([
        ("type".to_string(), form.entry_type.clone().into()),
        ("server".to_string(), server.into()),
        ("tool".to_string(), shared::HOOK_TOOL.into()),
        ("input".to_string(), serde_json::Value::Object(input)),
    ])
}

/// Places every hook of `bundle` on the `hosts` it reaches. `epoch` is the shared runtime's, when
/// a route renders in it; prebuilt handlers' reads go into `read`.
pub(super) fn place(
    files: &mut Assembly,
    bundle: &Bundle,
    bundled: &Bundled,
    hosts: &[Target],
    epoch: Option<&str>,
    root: &camino::Utf8Path,
    read: &mut InputSet,
) -> PlacedHooks {
    let mut placed =
        PlacedHooks { entries: hosts.iter().map(|t| (*t, Vec::new())).collect(), ..PlacedHooks::default() };
    let in_order = bundle.normalised.hooks_in_document_order();
    let combinings: BTreeMap<Target, Combining> = hosts
        .iter()
        .map(|&target| {
            (target, combined::combine(&bundle.plans, &in_order, target, bundle.normalised.separate_commands))
        })
        .collect();
    for hook in in_order {
        for (target, delivery) in crate::pipeline::plan::delivered(&bundle.plans, &hook.id, hosts) {
            let Delivery::Native {
                native_event,
                matcher,
                timeout_seconds,
                fail_closed,
                command,
                wrapper,
                entry_options,
                ..
            } = delivery
            else {
                continue;
            };
            let combined = combinings[&target].command_of(&hook.id);
            match &hook.handler {
                Handler::Module { path } => place_module_hook(
                    files,
                    &mut placed,
                    bundle,
                    bundled,
                    Placing { hook, path, target, delivery, epoch, combined: combined.map(|c| c.wrapper.as_str()) },
                ),
                Handler::Prebuilt { path, artifact_path, .. } => {
                    let recorded = bundled.prebuilt.get(path).expect("the bundle stage read every prebuilt handler");
                    placed.inputs.insert(hook.id.clone(), BTreeMap::from([(path.clone(), recorded.sha256.clone())]));
                    read.files.insert(lexical_join(root, path).to_string(), recorded.clone());
                    // Indexed as the program the host's command runs, in the host's plugin folder.
                    let folder = hosts::table(target).hooks.as_ref().and_then(|s| s.folder.as_deref());
                    let program = folder.map_or_else(|| artifact_path.clone(), |f| format!("{f}/{artifact_path}"));
                    placed.index.push(IndexRow { prebuilt: true, ..index_row(hook, target, delivery, program) });
                }
            }
            if runs_in_module(delivery) {
                placed.module_hooks.entry(target).or_default().push(ModuleHook {
                    name: hook.name.clone(),
                    event: hook.event.config().expect("only config hooks run in a hooks module"),
                    native_event: native_event.clone(),
                    wrapper: wrapper.clone().expect("a hook in a hooks module has a wrapper"),
                    matcher: matcher.clone(),
                    fail_closed: fail_closed.is_some(),
                });
                continue;
            }
            if let Some(command) = combined {
                // The command's entry stands where its first hook's would.
                if command.members[0].hook_id == hook.id {
                    let entries = placed.entries.get_mut(&target).expect("every host has a list");
                    entries.push(DocumentEntry {
                        native_event: command.native_event.clone(),
                        matcher: command.matcher.clone(),
                        timeout_seconds: command.timeout_seconds,
                        own_keys: command.own_keys.clone().into_iter().collect(),
                        command: command.command.clone(),
                        call: None,
                    });
                    let source = combined_wrapper_source(hosts::table(target), command, &generator());
                    let producer =
                        Producer::Wrapper { hook: format!("the combined {} command", command.native_event), target };
                    files.add(command.wrapper.clone(), ArtifactFile::new(source.into_bytes()), producer);
                }
                continue;
            }
            // Answered by the plugin's warm server: the entry calls its hook tool (place_module_hook
            // recorded the hook's input fields).
            let call = crate::pipeline::plan::warm::answers(delivery).then(|| {
                let warm = placed.warm_hooks.iter().find(|w| Some(&w.wrapper) == wrapper.as_ref());
                warm_entry(
                    hosts::table(target),
                    &bundle.plugin.name,
                    warm.expect("a hook the server answers is placed"),
                )
            });
            placed.entries.get_mut(&target).expect("every host has a list").push(DocumentEntry {
                call,
                native_event: native_event.clone(),
                matcher: matcher.clone(),
                timeout_seconds: *timeout_seconds,
                own_keys: fail_closed
                    .as_ref()
                    .and_then(|how| how.entry.clone())
                    .unwrap_or_default()
                    .into_iter()
                    .chain(entry_options.iter().map(|(key, value)| (key.clone(), value.clone())))
                    .collect(),
                command: command.clone(),
            });
        }
    }
    placed
}

/// The index row of `hook` on `target` as `delivery` plans it, running `path`: what every row holds,
/// the ways a module hook may run (a shared runtime, the hooks module, a combined command, the warm
/// server) left off for its caller to set.
fn index_row(hook: &Hook, target: Target, delivery: &Delivery, path: String) -> IndexRow {
    let Delivery::Native { native_event, matcher, timeout_seconds, effective_timeout_seconds, fail_closed, .. } =
        delivery
    else {
        unreachable!("only a delivered hook is indexed");
    };
    IndexRow {
        host: target,
        id: hook.id.clone(),
        name: hook.name.clone(),
        event: hook.event,
        native_event: native_event.clone(),
        matcher: matcher.clone(),
        timeout: *timeout_seconds,
        effective_timeout: *effective_timeout_seconds,
        fail_closed: fail_closed.is_some(),
        path,
        prebuilt: false,
        shared_runtime: None,
        route_budget_ms: None,
        hooks_module: false,
        combined: None,
        warm_server: false,
    }
}

/// One hook with a handler module on one host, to place: `epoch` is the shared runtime's, when a
/// route renders in it; `combined`, the wrapper of the combined command that runs it, if one does.
struct Placing<'a> {
    hook: &'a Hook,
    path: &'a str,
    target: Target,
    delivery: &'a Delivery,
    epoch: Option<&'a str>,
    combined: Option<&'a str>,
}

/// One hook with a handler module, on one host: its wrapper, the bundle copy it imports where the host
/// has a folder of its own, its index row, and its contract for the shared runtime when it renders
/// there.
fn place_module_hook(
    files: &mut Assembly,
    placed: &mut PlacedHooks,
    bundle: &Bundle,
    bundled: &Bundled,
    placing: Placing,
) {
    let Placing { hook, path, target, delivery, epoch, combined } = placing;
    let Delivery::Native { wrapper, shared, route_budget, .. } = delivery else {
        return;
    };
    let table = hosts::table(target);
    let file = wrapper.clone().expect("a handler module has a wrapper");
    let in_module = runs_in_module(delivery);
    let mapping = table.mapping_for(hook.event, in_module).expect("planned events are supported");
    let handler = &bundled.handlers[path];
    let fallback = hook.shared.as_ref().is_some_and(|s| s.fallback);
    let shared_facts = (*shared).then(|| (epoch.expect("an epoch when routes share"), fallback));
    // A package shipped whole is code the build does not read: it may open every door.
    let shipped = if bundle.normalised.external.is_empty() { Doors::default() } else { Doors::ALL };
    let doors = handler
        .chunks
        .iter()
        .filter_map(|path| bundled.loaded(path))
        .fold(Doors::of(&handler.code).or(shipped), |doors, (code, _, _)| doors.or(Doors::of(code)));
    let own_servers: Vec<(&str, &str)> = bundle
        .mcp
        .iter()
        .filter_map(|plan| match plan.on(target) {
            Some(crate::pipeline::plan::mcp::McpDelivery::Placed { tool_name, .. }) => {
                Some((plan.server.as_str(), tool_name.as_str()))
            }
            _ => None,
        })
        .collect();
    let contract = contract(
        PluginFacts { name: &bundle.plugin.name, mcp_servers: &own_servers },
        hook,
        table,
        mapping,
        delivery,
        doors,
        shared_facts,
    );
    if *shared && let Some(family) = hook.event.route() {
        let position = placed.shared_routes.iter().position(|r| r.family == family.name);
        let route = match position {
            Some(index) => &mut placed.shared_routes[index],
            None => {
                placed.shared_routes.push(SharedRoute {
                    family: family.name,
                    handler: relative_specifier(&shared::entry_path(&bundle.plugin.name), &handler.path),
                    contracts: Vec::new(),
                });
                placed.shared_routes.last_mut().expect("just pushed")
            }
        };
        route.contracts.push((target.name().to_string(), contract.clone()));
        if !placed.shared_hosts.contains(&target) {
            placed.shared_hosts.push(target);
        }
    }
    // A host with a folder of its own gets its own copy of the bundle (and of the runtime): its
    // plugin is that folder, installed without the rest.
    let bundle_of = || Producer::Bundle { handler: path.to_string() };
    let folder = layout::layout().host(target).and_then(|paths| paths.folder);
    let bundle_path = match folder {
        Some(folder) => {
            let copy = format!("{folder}/{}", handler.path);
            files.add(copy.clone(), ArtifactFile::new(handler.code.as_bytes().to_vec()), bundle_of());
            files.add(format!("{copy}.map"), ArtifactFile::new(handler.map.as_bytes().to_vec()), bundle_of());
            for path in &handler.chunks {
                super::bundles::place_loaded_copy(files, bundled, folder, path);
            }
            placed.folders.insert(folder.to_string());
            copy
        }
        None => handler.path.clone(),
    };
    let specifier = relative_specifier(&file, &bundle_path);
    let warm = crate::pipeline::plan::warm::answers(delivery);
    let form = match (in_module, combined, warm) {
        (true, _, _) => WrapperForm::InModule,
        (false, _, true) => WrapperForm::Served,
        (false, Some(command), false) => WrapperForm::Combined { command },
        (false, None, false) => WrapperForm::Own,
    };
    if warm {
        let input_keys = contract["input"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|field| field["key"].as_str().map(str::to_string))
            .collect();
        let deadline_ms = contract["hook"]["deadlineMs"].as_u64().expect("a contract names its deadline");
        let key = file.rsplit('/').next().unwrap_or(&file).trim_end_matches(".mjs").to_string();
        placed.warm_hooks.push(shared::WarmHook { key, wrapper: file.clone(), deadline_ms, input_keys });
        if !placed.shared_hosts.contains(&target) {
            placed.shared_hosts.push(target);
        }
    }
    let source = wrapper_source(hook, table, mapping, &contract, &specifier, &generator(), form);
    let producer = Producer::Wrapper { hook: hook.name.clone(), target };
    files.add(file.clone(), ArtifactFile::new(source.into_bytes()), producer);
    placed.index.push(IndexRow {
        shared_runtime: shared.then(|| shared::entry_path(&bundle.plugin.name)),
        route_budget_ms: route_budget.map(|budget| budget.ms),
        hooks_module: in_module,
        combined: combined.map(str::to_string),
        warm_server: warm,
        ..index_row(hook, target, delivery, file)
    });
    placed.inputs.insert(hook.id.clone(), handler.summary.clone());
    let products = placed.products.entry(hook.id.clone()).or_default();
    let copies = |path: &str| match folder {
        Some(folder) => {
            vec![path.to_string(), format!("{path}.map"), format!("{folder}/{path}"), format!("{folder}/{path}.map")]
        }
        None => vec![path.to_string(), format!("{path}.map")],
    };
    let own = std::iter::once(handler.path.as_str()).chain(handler.chunks.iter().map(String::as_str));
    for product in own.flat_map(copies) {
        if !products.contains(&product) {
            products.push(product);
        }
    }
}
