//! Bundling handlers (D10 in docs/decisions.md): each handler module, with every module and npm package it
//! imports, becomes one self-contained ES module for Node 18+, tree-shaken, with a source map, by
//! rolldown (the bundler behind Vite). Everything is resolved at build time the way Node would
//! resolve it at run time; what would fail there is a diagnostic here, at the importing line.
//!
//! Per handler: look up the cache (valid while every file and folder the bundler read is as it
//! was), else bundle ([`run`], watched by [`plugin`]), check what the bundle cannot carry
//! ([`scan`] for the bundle's own modules, [`packages`] for npm packages), turn the bundler's
//! findings into diagnostics ([`findings`]) and keep the result ([`cache`]). Packages the config
//! lists in `bundle.external` are not bundled but shipped whole ([`ship`]), each only with what it
//! needs at run time ([`closure`]).

mod cache;
mod closure;
mod environment;
mod findings;
mod fold;
mod native;
mod packages;
mod plugin;
pub(crate) use plugin::AGENT_RUNTIME;
mod resolution;
mod run;
mod scan;
mod ship;
pub(crate) use ship::GITIGNORE_PATH;
mod sourcemap;

pub(crate) use environment::{ModuleNeeds, module_needs, unmet_needs};
use std::collections::{BTreeMap, BTreeSet};

use camino::{Utf8Path, Utf8PathBuf};

pub use ship::SHIPPED_DIR;

use crate::diagnostic::{Diagnostic, Staged, messages};
use crate::io::CacheStore;
use crate::io::stamp::{InputSet, Recorded};
use crate::io::{Disk, lexical_join};
use crate::pipeline::Bundle;
use crate::pipeline::normalise::ExternalPackage;
use crate::pipeline::normalise::Handler;
use crate::pipeline::normalise::mcp::McpServerSpec;
use crate::pipeline::plan::mcp::McpDelivery;
use crate::vocabulary::source::{Location, SourceFile};
use crate::vocabulary::target::Target;

/// Extensions of the files the bundler takes as modules (and reads as text).
const MODULE_EXTENSIONS: &[&str] = &["js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "json"];

/// Whether a path's extension is one of a module's.
fn is_module_extension(extension: &str) -> bool {
    MODULE_EXTENSIONS.contains(&extension)
}

/// Where handler bundles go in the artifact.
pub use crate::hosts::layout::HANDLERS_DIR;

/// A handler to bundle: its root-relative path and where the config declares it.
#[derive(Clone, Debug)]
pub struct HandlerEntry {
    pub path: String,
    pub declared_at: Location,
    /// An MCP server's module (`mcpServers.<name>.module`): it runs as a program, so it needs no
    /// default export.
    pub server: bool,
}

/// One handler, bundled: its entry file, and the shared chunks it loads.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct BundledHandler {
    /// The bundle's artifact path (`hooks/handlers/src/hooks/guard.mjs`); its map is beside it.
    pub path: String,
    pub code: String,
    pub map: String,
    /// The artifact paths of every chunk it loads, directly or through another chunk, sorted (each
    /// with its map beside it, in [`Bundled::chunks`]).
    pub chunks: Vec<String>,
    /// What it was built from, for `--explain`: root-relative modules and `npm:<name>@<version>`
    /// packages, each with a digest of what was read of it.
    pub summary: BTreeMap<String, String>,
    /// The payload fields its default export destructures, each where it is written in the handler
    /// (for AB4852, judged per host after bundling, since which hosts get the hook is not part of a
    /// bundle's cache key).
    #[serde(default)]
    pub payload_reads: Vec<(String, crate::vocabulary::source::Span)>,
    /// Where one of its own modules (root-relative) first reads stdin itself: judged per host after
    /// bundling, as `payload_reads` are (a wrapper serves such reads the envelope it read; a host
    /// that runs the hook in its own process, or the shared runtime, has no envelope on stdin).
    #[serde(default)]
    pub stdin_read: Option<(String, crate::vocabulary::source::Span)>,
    /// The keys of a tool's native input its own modules read by name (`toolInput.command`), each
    /// with the module (root-relative) and where it is first read: judged per host after bundling
    /// (AB4854), as `payload_reads` are.
    #[serde(default)]
    pub tool_input_reads: Vec<(String, String, crate::vocabulary::source::Span)>,
}

impl BundledHandler {
    pub fn map_path(&self) -> String {
        format!("{}.map", self.path)
    }
}

/// A chunk of modules that several handlers of a bundle share.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BundledChunk {
    pub code: String,
    pub map: String,
}

/// How bundles were obtained, for `--explain` and the benchmark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BundleStats {
    pub bundled: usize,
    pub cached: usize,
    /// Cache entries found corrupt (and replaced).
    pub corrupt: usize,
}

/// The bundle stage's result: what every hook runs. Each handler module bundled (or the
/// diagnostics that say why not), each prebuilt handler as it was read, packages shipped whole.
#[derive(Debug, Default)]
pub struct Bundled {
    /// By handler path.
    pub handlers: BTreeMap<String, BundledHandler>,
    /// The chunks handlers share, by artifact path.
    pub chunks: BTreeMap<String, BundledChunk>,
    /// Every file and folder bundling read, by absolute path.
    pub inputs: InputSet,
    /// Prebuilt handlers (root-relative path), as read for the build's inputs.
    pub prebuilt: BTreeMap<String, Recorded>,
    /// Whether the stage reported an error: then not every hook has what it runs, and nothing is
    /// emitted.
    pub failed: bool,
    /// Packages shipped whole, with their files (artifact path → bytes and mode).
    pub shipped: ship::Shipped,
    pub stats: BundleStats,
    /// The sources diagnostics point into.
    pub sources: Vec<SourceFile>,
}

/// The artifact path of a handler's bundle: its path under [`HANDLERS_DIR`], extension `.mjs`.
/// Two handlers that differ only in extension keep theirs (`a.ts.mjs`, `a.js.mjs`).
pub fn bundle_path(handler: &str, all: &[HandlerEntry]) -> String {
    let stem = |path: &str| path.rsplit_once('.').map_or(path.to_string(), |(stem, _)| stem.to_string());
    let clashes = all.iter().filter(|h| stem(&h.path) == stem(handler)).count() > 1;
    let name = if clashes { handler.to_string() } else { stem(handler) };
    format!("{HANDLERS_DIR}/{name}.mjs")
}

/// The bundle stage: what every hook that reaches one of `hosts` runs. Its handler module bundled,
/// or its prebuilt handler read (and found); packages the config ships whole, shipped. `root` is
/// the canonical bundle root.
pub fn bundle(
    bundle: &Bundle,
    root: &Utf8Path,
    hosts: &[Target],
    disk: &dyn Disk,
    cache: Option<&CacheStore>,
) -> Staged<Bundled> {
    let mut diagnostics = Vec::new();
    // In document order (canonical event, then id), so each module is declared where it first is.
    let hooks = bundle.normalised.hooks_in_document_order();
    let mut modules: Vec<HandlerEntry> = Vec::new();
    let mut prebuilt = BTreeMap::new();
    for hook in hooks {
        if crate::pipeline::plan::delivered(&bundle.plans, &hook.id, hosts).is_empty() {
            continue;
        }
        match &hook.handler {
            Handler::Module { path } if !modules.iter().any(|m| &m.path == path) => {
                modules.push(HandlerEntry { path: path.clone(), declared_at: hook.declared_at.clone(), server: false })
            }
            Handler::Prebuilt { path, .. } if !prebuilt.contains_key(path) => {
                let absolute = lexical_join(root, path);
                if !disk.is_file(&absolute) {
                    diagnostics.push(messages::prebuilt_missing_at_build(path, &hook.declared_at));
                    continue;
                }
                prebuilt.insert(path.clone(), disk.read_recorded(&absolute).0);
            }
            _ => {}
        }
    }
    // The modules of the plugin's MCP servers placed for one of `hosts`, bundled with the handlers.
    for server in &bundle.normalised.mcp_servers {
        let McpServerSpec::Module { module, .. } = &server.spec else { continue };
        let placed = bundle.mcp.iter().filter(|p| p.server == server.name).any(|plan| {
            plan.targets.iter().any(|t| hosts.contains(&t.target) && matches!(t.delivery, McpDelivery::Placed { .. }))
        });
        if !placed {
            continue;
        }
        match modules.iter_mut().find(|m| &m.path == module) {
            // A module that is both a handler and a server is judged as a handler.
            Some(_) => {}
            None => modules.push(HandlerEntry {
                path: module.clone(),
                declared_at: server.declared_at.clone(),
                server: true,
            }),
        }
    }
    let normalised = &bundle.normalised;
    let mut bundled = bundle_handlers(root, &modules, normalised, cache, disk, &mut diagnostics);
    bundled.prebuilt = prebuilt;
    bundled.failed = diagnostics.iter().any(Diagnostic::is_error);
    if !bundled.failed {
        let per_host = PerHost { bundle, root, hosts, disk };
        unsent_reads(&per_host, &mut bundled, &mut diagnostics);
        stdin_without_envelope(&per_host, &mut bundled, &mut diagnostics);
        unheld_tool_input_reads(&per_host, &mut bundled, &mut diagnostics);
    }
    Staged { value: bundled, diagnostics }
}

/// What judging the bundled handlers per host needs: which hosts a handler's hooks reach is not part
/// of a bundle's cache key, so these judgements run after bundling, on every build.
struct PerHost<'a> {
    bundle: &'a Bundle,
    root: &'a Utf8Path,
    hosts: &'a [Target],
    disk: &'a dyn Disk,
}

impl PerHost<'_> {
    /// Where `span` is in the bundle's module `path` (root-relative), its source kept for the
    /// diagnostic's rendering; `None` when the module cannot be read again.
    fn locate(&self, bundled: &mut Bundled, path: &str, span: crate::vocabulary::source::Span) -> Option<Location> {
        let text = self.disk.read_to_string(&lexical_join(self.root, path)).ok()?;
        let file = SourceFile::new(path.to_string(), text);
        let at = file.locate(span);
        if !bundled.sources.iter().any(|s| s.path() == file.path()) {
            bundled.sources.push(file);
        }
        Some(at)
    }
}

/// AB4852: a config handler destructures a payload field that a host its hook reaches never sends
/// on that event (another host does, or it would not be a field), so there it is always
/// `undefined`. One warning per handler and field, naming those hosts.
fn unsent_reads(per_host: &PerHost<'_>, bundled: &mut Bundled, diagnostics: &mut Vec<Diagnostic>) {
    let PerHost { bundle, hosts, .. } = *per_host;
    let mut warned: BTreeMap<(String, String), Vec<Target>> = BTreeMap::new();
    let mut events: BTreeMap<(String, String), crate::vocabulary::canonical::CanonicalEvent> = BTreeMap::new();
    let mut sent_by_event: BTreeMap<crate::vocabulary::canonical::CanonicalEvent, BTreeSet<String>> = BTreeMap::new();
    for hook in bundle.normalised.hooks_in_document_order() {
        let (crate::vocabulary::hook_event::HookEvent::Config(event), Handler::Module { path }) =
            (hook.event, &hook.handler)
        else {
            continue;
        };
        let Some(handler) = bundled.handlers.get(path) else { continue };
        if handler.payload_reads.is_empty() {
            continue;
        }
        // Every field some host sends on the event (another name is no payload field at all), once
        // per event.
        let sent_anywhere = sent_by_event.entry(event).or_insert_with(|| {
            crate::hosts::tables()
                .iter()
                .filter_map(|t| Some((t.hooks.as_ref()?, t.event(event).ok()?)))
                .flat_map(|(surface, mapping)| surface.input_fields(mapping).filter_map(|f| f.canonical.clone()))
                .chain(crate::vocabulary::canonical::PAYLOAD_ALIASES.iter().map(|(old, _)| (*old).to_string()))
                .collect::<BTreeSet<String>>()
        });
        for target in crate::pipeline::plan::delivered(&bundle.plans, &hook.id, hosts).into_iter().map(|(t, _)| t) {
            let table = crate::hosts::table(target);
            let (Some(surface), Ok(mapping)) = (&table.hooks, table.event(event)) else { continue };
            let sends = |field: &str| {
                let field = crate::vocabulary::canonical::PAYLOAD_ALIASES
                    .iter()
                    .find(|(old, _)| *old == field)
                    .map_or(field, |(_, canonical)| canonical);
                field == "tool" || surface.input_fields(mapping).any(|f| f.canonical.as_deref() == Some(field))
            };
            for (field, _) in &handler.payload_reads {
                if sent_anywhere.contains(field) && !sends(field) {
                    let hosts = warned.entry((path.clone(), field.clone())).or_default();
                    if !hosts.contains(&target) {
                        hosts.push(target);
                    }
                    events.insert((path.clone(), field.clone()), event);
                }
            }
        }
    }
    for ((path, field), targets) in warned {
        let handler = &bundled.handlers[&path];
        let Some(&(_, span)) = handler.payload_reads.iter().find(|(f, _)| *f == field) else { continue };
        let Some(at) = per_host.locate(bundled, &path, span) else { continue };
        let names: Vec<String> = targets.iter().map(|t| crate::hosts::table(*t).host.clone()).collect();
        diagnostics.push(messages::payload_field_unsent(
            &path,
            &field,
            events[&(path.clone(), field.clone())],
            &names,
            &at,
        ));
    }
}

/// AB4854: a tool hook's handler reads a key of the tool's native input by name (`toolInput.command`)
/// that another host's tools hold, and none of the tools the hook runs for on a host it reaches does
/// (Cline CLI's `run_commands` keeps `commands`): there it is always undefined, and a guard judging it
/// lets every call through. One warning per handler and key, naming those hosts and their own keys.
fn unheld_tool_input_reads(per_host: &PerHost<'_>, bundled: &mut Bundled, diagnostics: &mut Vec<Diagnostic>) {
    use crate::vocabulary::canonical::{CanonicalEvent, Selector};
    let PerHost { bundle, hosts, .. } = *per_host;
    // The keys a host's tools of these kinds hold, as its table's input maps name them.
    let keys_of = |target: Target, selectors: &[Selector]| -> BTreeSet<String> {
        let table = crate::hosts::table(target);
        selectors
            .iter()
            .filter_map(|selector| table.selector(*selector).ok())
            .flat_map(|mapping| mapping.input.values())
            .flat_map(|map| map.input_keys())
            .map(str::to_string)
            .collect()
    };
    // By handler and key: each host where it is unheld, with the keys its tools hold instead.
    type Unheld = BTreeMap<Target, BTreeSet<String>>;
    let mut warned: BTreeMap<(String, String), Unheld> = BTreeMap::new();
    for hook in bundle.normalised.hooks_in_document_order() {
        let (
            crate::vocabulary::hook_event::HookEvent::Config(CanonicalEvent::BeforeTool | CanonicalEvent::AfterTool),
            Handler::Module { path },
        ) = (hook.event, &hook.handler)
        else {
            continue;
        };
        let Some(handler) = bundled.handlers.get(path).filter(|h| !h.tool_input_reads.is_empty()) else { continue };
        // The kinds of tool the hook runs for: its canonical `tools`, else every kind (a hook that names
        // a host's own tools reads that host's keys knowingly).
        if !hook.native_tools.is_empty() || !hook.mcp_tools.is_empty() {
            continue;
        }
        let selectors: Vec<Selector> = if hook.tools.is_empty() { Selector::ALL.to_vec() } else { hook.tools.clone() };
        let held_anywhere: BTreeSet<String> = Target::ALL
            .into_iter()
            .filter(|t| crate::hosts::table(*t).has_hooks())
            .flat_map(|t| keys_of(t, &selectors))
            .collect();
        for target in crate::pipeline::plan::delivered(&bundle.plans, &hook.id, hosts).into_iter().map(|(t, _)| t) {
            let held = keys_of(crate::hosts::table(target).built_as(), &selectors);
            if held.is_empty() {
                continue;
            }
            for (key, ..) in &handler.tool_input_reads {
                if held_anywhere.contains(key) && !held.contains(key) {
                    warned.entry((path.clone(), key.clone())).or_default().insert(target, held.clone());
                }
            }
        }
    }
    for ((path, key), targets) in warned {
        let handler = &bundled.handlers[&path];
        let Some((_, module, span)) = handler.tool_input_reads.iter().find(|(k, ..)| *k == key).cloned() else {
            continue;
        };
        let Some(at) = per_host.locate(bundled, &module, span) else { continue };
        let hosts: Vec<(String, Vec<String>)> = targets
            .into_iter()
            .map(|(t, held)| (crate::hosts::table(t).host.clone(), held.into_iter().collect()))
            .collect();
        diagnostics.push(messages::tool_input_key_unheld(&path, &key, &hosts, &at));
    }
}

/// AB4853: a handler whose own code reads stdin, on a host where no envelope arrives there: one
/// that runs hooks in its own process, or a route rendered in the shared runtime.
fn stdin_without_envelope(per_host: &PerHost<'_>, bundled: &mut Bundled, diagnostics: &mut Vec<Diagnostic>) {
    let PerHost { bundle, hosts, .. } = *per_host;
    let mut found: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for hook in bundle.normalised.hooks_in_document_order() {
        let Handler::Module { path } = &hook.handler else { continue };
        if bundled.handlers.get(path).is_none_or(|handler| handler.stdin_read.is_none()) {
            continue;
        }
        for (target, delivery) in crate::pipeline::plan::delivered(&bundle.plans, &hook.id, hosts) {
            let table = crate::hosts::table(target);
            let in_process = table.hooks.as_ref().is_some_and(|surface| surface.in_process());
            let shared = matches!(delivery, crate::pipeline::plan::Delivery::Native { shared: true, .. });
            let place = if shared { "the shared runtime".to_string() } else { table.host.clone() };
            let places = found.entry(path.as_str()).or_default();
            if (in_process || shared) && !places.contains(&place) {
                places.push(place);
            }
        }
    }
    for (path, places) in found.into_iter().filter(|(_, places)| !places.is_empty()) {
        let (module, span) = bundled.handlers[path].stdin_read.clone().expect("only handlers that read stdin");
        let Some(at) = per_host.locate(bundled, &module, span) else { continue };
        diagnostics.push(messages::stdin_without_envelope(path, &module, &places, &at));
    }
}

/// Bundles every handler of a bundle rooted at `root` (canonical) in one bundler build, with the
/// bundle's settings (`bundle.define`), and ships its `bundle.external` packages (as
/// `bundle.keepOutsideLinks` says). The build is cached as a
/// whole: it is redone when anything any of its handlers read changed (it then yields the same
/// bytes for every handler whose inputs did not change, so the artifact writer leaves them as
/// they were).
fn bundle_handlers(
    root: &Utf8Path,
    handlers: &[HandlerEntry],
    settings: &crate::pipeline::normalise::Normalised,
    cache: Option<&CacheStore>,
    disk: &dyn Disk,
    diagnostics: &mut Vec<Diagnostic>,
) -> Bundled {
    let (external, keep_outside_links, define) =
        (&settings.external, settings.keep_outside_links, settings.define.as_slice());
    let mut out = Bundled::default();
    if handlers.is_empty() {
        return out;
    }
    // The bundler's output depends on the order of its entries (which module a shared chunk is
    // named after, which names get deconflicted): entries go in by path, so a build depends only on
    // the set of handlers, which is what the cache key names, never on the order they are declared in.
    let mut handlers = handlers.to_vec();
    handlers.sort_by(|a, b| a.path.cmp(&b.path));
    let handlers = handlers.as_slice();
    let external_names: Vec<String> = external.iter().map(|e| e.name.clone()).collect();
    // A server's module is judged otherwise than a handler's (no default export needed): the key says which.
    let keyed: Vec<String> =
        handlers.iter().map(|h| if h.server { format!("{}\0mcp-server", h.path) } else { h.path.clone() }).collect();
    let key = cache::key(keyed.iter().map(String::as_str), &external_names, define);
    match cache.map(|store| cache::lookup(store, &key, root)) {
        Some(cache::Found::Fresh(entry)) => {
            out.stats.cached += handlers.len();
            diagnostics.extend(entry.warnings());
            out.sources.extend(entry.sources());
            entry.into_bundled(&mut out);
        }
        found => {
            if matches!(found, Some(cache::Found::Corrupt)) {
                out.stats.corrupt += 1;
            }
            if let Some(built) = build(root, handlers, &external_names, define, disk, diagnostics, &mut out.sources) {
                out.stats.bundled += handlers.len();
                if let Some(store) = cache {
                    cache::store(store, &key, root, &built.bundled, &built.warnings, &out.sources);
                }
                let Bundled { handlers, chunks, inputs, .. } = built.bundled;
                (out.handlers, out.chunks, out.inputs) = (handlers, chunks, inputs);
            }
        }
    }

    if !external.is_empty() && !out.handlers.is_empty() {
        let code: Vec<&str> = out
            .handlers
            .values()
            .map(|h| h.code.as_str())
            .chain(out.chunks.values().map(|c| c.code.as_str()))
            .collect();
        let (shipped, found) = ship::ship(root, external, &code, keep_outside_links);
        out.shipped = shipped;
        diagnostics.extend(found);
    }
    out
}

/// One bundler build's result, and the warnings it came with (kept with it in the cache).
struct Built {
    bundled: Bundled,
    warnings: Vec<Diagnostic>,
}

/// Runs the bundler on `handlers` and judges what it reported; `None` when it failed (its
/// diagnostics say why).
fn build(
    root: &Utf8Path,
    handlers: &[HandlerEntry],
    external: &[String],
    define: &[(String, String)],
    disk: &dyn Disk,
    diagnostics: &mut Vec<Diagnostic>,
    sources: &mut Vec<SourceFile>,
) -> Option<Built> {
    let names = |handler: &HandlerEntry| run::entry_name(&bundle_path(&handler.path, handlers));
    let job = |handlers: &[HandlerEntry]| run::Job {
        root: root.to_path_buf(),
        entries: handlers.iter().map(|h| (names(h), h.path.clone())).collect(),
        external: external.to_vec(),
        define: define.to_vec(),
    };
    // Recorded before the bundler reads: what decides resolution that is known in advance.
    let pre = resolution::preread(root, disk);
    let mut run = run::run_all(vec![job(handlers)]).pop().expect("one run per job");
    let found = findings::judge(root, handlers, &mut run, external);
    if found.diagnostics.iter().any(Diagnostic::is_error) {
        if handlers.len() == 1 {
            diagnostics.extend(found.diagnostics);
            sources.extend(found.sources);
        } else {
            // The bundler stops at a build's first failing stage, so one handler's error can hide
            // another's: each handler is bundled on its own to report them all (failed builds only).
            let alone: Vec<run::Job> = handlers.iter().map(|h| job(std::slice::from_ref(h))).collect();
            let mut reported = BTreeSet::new();
            let mut each = Vec::new();
            for (handler, mut run) in handlers.iter().zip(run::run_all(alone)) {
                let found = findings::judge(root, std::slice::from_ref(handler), &mut run, external);
                each.extend(found.diagnostics.into_iter().filter(|d| {
                    let at = d.primary_location().map(|l| (l.file.clone(), l.line, l.column));
                    reported.insert((d.code, d.message.clone(), at))
                }));
                sources.extend(found.sources);
            }
            // Should the handlers build alone and fail only together, the build's own errors stand.
            if !each.iter().any(Diagnostic::is_error) {
                each = found.diagnostics;
                sources.extend(found.sources);
            }
            diagnostics.extend(each);
        }
        return None;
    }
    diagnostics.extend(found.diagnostics.iter().cloned());
    sources.extend(found.sources.iter().cloned());
    let missing: Vec<&HandlerEntry> = handlers.iter().filter(|h| run.entry(&h.path).is_none()).collect();
    if let Some(handler) = missing.first() {
        // A bundler failure every finding above missed is still a failure of this handler, never
        // a handler without a bundle.
        diagnostics.push(messages::bundler_error(
            "the bundler produced no bundle and reported nothing a finding explains",
            Some(&handler.declared_at),
        ));
        return None;
    }
    let inputs = packages::inputs(root, &run, &pre);
    fold::fold(root, &mut run);
    let mut bundled = Bundled { inputs, ..Bundled::default() };
    for chunk in run.chunks.iter().filter(|chunk| chunk.entry_of.is_none()) {
        let finished = BundledChunk { code: sourcemap::finish_code(&chunk.code), map: chunk.map.clone() };
        bundled.chunks.insert(chunk.path.clone(), finished);
    }
    for handler in handlers {
        let entry = run.entry(&handler.path).expect("every handler has its entry");
        let loaded = loaded_chunks(&run, entry);
        let modules: BTreeSet<&str> = std::iter::once(entry)
            .chain(run.chunks.iter().filter(|c| loaded.contains(&c.path)))
            .flat_map(|c| c.modules.iter().map(String::as_str))
            .collect();
        let summary = packages::summary(root, &bundled.inputs, &run, &modules);
        let stdin_read = modules
            .iter()
            .filter_map(|module| {
                Some((display_path(root, Utf8Path::new(module)).to_string(), *found.stdin_reads.get(*module)?))
            })
            .min();
        let mut tool_input_reads: Vec<(String, String, crate::vocabulary::source::Span)> = Vec::new();
        for module in &modules {
            for (key, span) in found.tool_input_reads.get(*module).into_iter().flatten() {
                if !tool_input_reads.iter().any(|(read, ..)| read == key) {
                    let shown = display_path(root, Utf8Path::new(module)).to_string();
                    tool_input_reads.push((key.clone(), shown, *span));
                }
            }
        }
        bundled.handlers.insert(
            handler.path.clone(),
            BundledHandler {
                path: entry.path.clone(),
                code: sourcemap::finish_code(&entry.code),
                map: entry.map.clone(),
                chunks: loaded.into_iter().collect(),
                summary,
                payload_reads: found.payload_reads.get(&handler.path).cloned().unwrap_or_default(),
                stdin_read,
                tool_input_reads,
            },
        );
    }
    Some(Built { bundled, warnings: found.diagnostics })
}

/// The chunks an entry loads, directly or through another chunk (another handler's entry among
/// them, when it imports that handler's module); not the packages left as imports.
fn loaded_chunks(run: &run::Run, entry: &run::Chunk) -> BTreeSet<String> {
    let mut loaded = BTreeSet::new();
    let mut pending: Vec<&str> = entry.imports.iter().chain(&entry.dynamic_imports).map(String::as_str).collect();
    while let Some(path) = pending.pop() {
        if let Some(chunk) = run.chunks.iter().find(|c| c.path == path)
            && path != entry.path
            && loaded.insert(path.to_string())
        {
            pending.extend(chunk.imports.iter().chain(&chunk.dynamic_imports).map(String::as_str));
        }
    }
    loaded
}

impl Bundled {
    /// A file a handler loads, by artifact path: a shared chunk or another handler's entry, with
    /// the handler whose entry it is.
    pub fn loaded(&self, path: &str) -> Option<(&str, &str, Option<&str>)> {
        if let Some(chunk) = self.chunks.get(path) {
            return Some((&chunk.code, &chunk.map, None));
        }
        self.handlers.iter().find(|(_, h)| h.path == path).map(|(source, h)| (&*h.code, &*h.map, Some(source.as_str())))
    }
}

/// A path as diagnostics and summaries show it: relative to the bundle root (with `..` where it lies
/// outside), so output never depends on where the bundle sits on disk.
pub(crate) fn display_path(root: &Utf8Path, path: &Utf8Path) -> Utf8PathBuf {
    crate::io::relative_with_dots(path, root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundle_paths_mirror_handler_paths() {
        let at = Location { file: "agent-bundle.config.ts".into(), line: 1, column: 1, span: Default::default() };
        let entry = |path: &str| HandlerEntry { path: path.to_string(), declared_at: at.clone(), server: false };
        let all = [entry("src/hooks/a.ts"), entry("src/hooks/b.ts"), entry("src/hooks/b.js")];
        assert_eq!(bundle_path("src/hooks/a.ts", &all), "hooks/handlers/src/hooks/a.mjs");
        assert_eq!(bundle_path("src/hooks/b.js", &all), "hooks/handlers/src/hooks/b.js.mjs");
        assert_eq!(display_path("/w/bundle".into(), "/w/shared/x.ts".into()), "../shared/x.ts");
        assert_eq!(display_path("/w/bundle".into(), "/w/bundle/src/x.ts".into()), "src/x.ts");
    }
}
