//! The pipeline's stages, in the order they run: [`discover`] finds the config, [`extract`] reads it
//! statically, [`config`] reads it into the config model, [`normalise`] judges each declaration,
//! [`plan`] decides what each host gets, [`bundle`] bundles the handlers and [`emit`] writes the bytes of
//! every artifact file. [`load`] runs the first five and gathers their diagnostics; each stage
//! returns its value and its diagnostics, only [`load`] (and, for the rest, [`crate::driver`]) knows the
//! order, and it stops early only when a stage has nothing for the next one to work on.

pub(crate) mod bundle;
pub mod config;
pub mod discover;
pub(crate) mod emit;
pub mod extract;
pub(crate) mod icon;
pub mod normalise;
pub mod plan;
pub mod types;

use std::collections::BTreeMap;

use camino::{Utf8Path, Utf8PathBuf};
use serde::Serialize;

use crate::diagnostic::{self, Diagnostic, Staged, messages};
use crate::io::Disk;
use crate::vocabulary::canonical::MAX_HOOKS_PER_BUNDLE;
use crate::vocabulary::source::SourceFile;
use config::{Author, PluginConfig};
use normalise::Normalised;
use plan::HookPlan;

/// A bundle read from disk and judged: everything `inspect` shows and `build` emits from.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Bundle {
    /// The config file, relative to the root.
    pub config_file: String,
    pub plugin: PluginInfo,
    #[serde(flatten)]
    pub normalised: Normalised,
    pub plans: Vec<HookPlan>,
    /// The plugin's own MCP servers, per host (`mcpServers`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mcp: Vec<plan::mcp::McpPlan>,
    /// The plugin's skills, commands, agents and context file, per host.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<plan::parts::PartPlan>,
    /// Event routes found under `src/events/`; each judged one is also a hook.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<discover::Route>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginInfo {
    pub name: String,
    /// Whether the name was derived from the folder because the config gave none.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub name_from_folder: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// From `plugin.author`, else from `author` in the bundle's package.json.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<Author>,
    /// From `plugin.license`, else from `license` in the bundle's package.json.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// `plugin.homepage`, `plugin.repository` and `plugin.keywords`, for the manifests that carry them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub homepage: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    /// `plugin.interface`, judged against the hosts' manifests that have one (Codex's).
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub interface: serde_json::Map<String, serde_json::Value>,
    /// The bundle's own files that describe the plugin and reach the artifact: its README, its
    /// license file and its icon, by root-relative path.
    #[serde(skip_serializing_if = "PluginFiles::is_empty")]
    pub files: PluginFiles,
}

/// The bundle root's README and LICENSE and the plugin's icon, each when present.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginFiles {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readme: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    /// The files `plugin.interface` names (Codex's logos and screenshots), root-relative.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub interface_assets: Vec<String>,
}

impl PluginFiles {
    pub fn is_empty(&self) -> bool {
        self.readme.is_none() && self.license.is_none() && self.icon.is_none() && self.interface_assets.is_empty()
    }

    /// Each file with where it lands in the artifact: the README and license at its root, the icon
    /// where `icon_path` (a host's icon location) says, and with `interface_assets` the files
    /// `plugin.interface` names, at their own paths (the manifest names them so).
    pub fn placed<'p>(&'p self, icon_paths: &'p [&'p str], interface_assets: bool) -> Vec<(&'p str, &'p str)> {
        let mut placed: Vec<(&str, &str)> = Vec::new();
        placed.extend(self.readme.as_deref().map(|p| (p, p)));
        placed.extend(self.license.as_deref().map(|p| (p, p)));
        if let Some(icon) = &self.icon {
            placed.extend(icon_paths.iter().map(|destination| (icon.as_str(), *destination)));
        }
        if interface_assets {
            placed.extend(self.interface_assets.iter().map(|p| (p.as_str(), p.as_str())));
        }
        placed
    }
}

/// The JSON type each `plugin.interface` key takes on the hosts that read one (their tables'
/// `manifestInterface`): `string`, `array`, `stringOrArray`, or a file of the bundle (`asset`) or a
/// list of them (`assets`).
fn interface_types() -> BTreeMap<&'static str, &'static str> {
    let mut known = BTreeMap::new();
    for table in crate::hosts::tables() {
        for (key, kind) in table.hooks.iter().flat_map(|surface| &surface.manifest_interface) {
            known.insert(key.as_str(), kind.as_str());
        }
    }
    known
}

/// The names a README and a license file have at a bundle's root, in the order they are preferred.
use crate::hosts::layout::{LICENSE_NAMES, README_NAMES};
/// The icon taken when the config names none.
const DEFAULT_ICON: &str = "icon.png";

/// The result of loading: a bundle unless an error stopped the stages, the sources diagnostics point
/// into, and every diagnostic, sorted by position.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The bundle root as the user gave it (for messages).
    pub root: Utf8PathBuf,
    pub bundle: Option<Bundle>,
    pub sources: Vec<SourceFile>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Loaded {
    pub fn has_errors(&self) -> bool {
        diagnostic::has_errors(&self.diagnostics)
    }

    /// The same diagnostics and sources with every file shown under the bundle root, for reports
    /// that cover several bundles and must say which one a file belongs to.
    pub fn with_paths_under_root(&self) -> Loaded {
        let prefix = |path: &Utf8Path| if path.is_absolute() { path.to_path_buf() } else { self.root.join(path) };
        let mut loaded = Loaded {
            root: self.root.clone(),
            bundle: None,
            sources: Vec::new(),
            diagnostics: self.diagnostics.clone(),
        };
        for source in &self.sources {
            loaded.sources.push(SourceFile::new(prefix(source.path()), source.text.clone()));
        }
        for diagnostic in &mut loaded.diagnostics {
            for label in &mut diagnostic.labels {
                label.location.file = prefix(&label.location.file);
            }
        }
        loaded
    }
}

/// Settles where each hook runs on a host with a hooks module (Claude Code's mods), from what its
/// bundle needs ([`plan::settle`]): the step between the bundle stage and emitting, which `build` and
/// `inspect` run. Each handler's bundle is read once, however many hooks and hosts share it.
pub(crate) fn settle_hooks_modules(bundle: &mut Bundle, bundled: &bundle::Bundled) {
    if !plan::unsettled(&bundle.plans) {
        return;
    }
    let needs: std::collections::BTreeMap<&str, Option<bundle::ModuleNeeds>> =
        plan::candidate_handlers(&bundle.plans, &bundle.normalised.hooks)
            .into_iter()
            .map(|path| (path, bundled.handlers.get(path).map(|built| bundle::module_needs(&built.code))))
            .collect();
    let unmet = |handler: &str, globals: &[String]| -> Vec<String> {
        let globals: Vec<&str> = globals.iter().map(String::as_str).collect();
        match needs.get(handler).and_then(Option::as_ref) {
            Some(needs) => bundle::unmet_needs(needs, &globals),
            None => vec!["it was not bundled".to_string()],
        }
    };
    plan::settle(&mut bundle.plans, &bundle.normalised.hooks, &unmet);
    // A hook the hooks module declined may be the warm server's.
    plan::warm::assign(&mut bundle.plans, &bundle.normalised.hooks, bundle.normalised.warm_server);
}

/// Loads the bundle at `root` (a path as the user gave it).
pub fn load(root: &Utf8Path, disk: &dyn Disk) -> Loaded {
    let mut loaded = Loaded { root: root.to_owned(), bundle: None, sources: Vec::new(), diagnostics: Vec::new() };
    let Some(canonical_root) = disk.canonicalize(root).filter(|r| disk.is_dir(r)) else {
        loaded.diagnostics.push(messages::root_not_found(root));
        return loaded;
    };
    let config_path = match discover::find_config(&canonical_root, root, disk) {
        Ok(path) => path,
        Err(diagnostic) => {
            loaded.diagnostics.push(diagnostic);
            return loaded;
        }
    };
    let config_file = config_path.file_name().unwrap_or("agent-bundle.config.ts").to_string();
    let text = match disk.read_to_string(&config_path) {
        Ok(text) => text,
        Err(error) => {
            loaded.diagnostics.push(messages::config_unreadable(&root.join(&config_file), &error));
            return loaded;
        }
    };
    let source = SourceFile::new(config_file.clone(), text);

    let extracted = extract::extract_default_export(&source);
    loaded.diagnostics.extend(extracted.diagnostics);
    let Some(root_value) = extracted.value else {
        loaded.sources.push(source);
        return finish(loaded);
    };

    let Staged { value: config, diagnostics } = config::read_config(&source, &root_value);
    loaded.diagnostics.extend(diagnostics);

    if config.hooks.len() > MAX_HOOKS_PER_BUNDLE {
        // Refused before any is normalised or planned: the size alone is the error.
        let at = config.hooks.get(MAX_HOOKS_PER_BUNDLE).map(|h| &h.at);
        loaded.diagnostics.push(messages::too_many_hooks(config.hooks.len(), 0, MAX_HOOKS_PER_BUNDLE, at));
        loaded.sources.push(source);
        return finish(loaded);
    }
    let Staged { value: mut normalised, diagnostics } = normalise::normalise(&config, &canonical_root, disk);
    loaded.diagnostics.extend(diagnostics);

    // Event routes: every module under src/events/ that no config entry claims, read and judged,
    // then hooks like the config's.
    let claimed: Vec<String> = normalised.hooks.iter().map(|h| h.handler.path().to_string()).collect();
    let claimed: Vec<&str> = claimed.iter().map(String::as_str).collect();
    let Staged { value: routes, diagnostics } = discover::find_routes(&canonical_root, &claimed, disk);
    loaded.diagnostics.extend(diagnostics);
    let selected: Vec<_> = crate::hosts::built_hosts(&normalised.targets);
    for route in &routes {
        let (route_diagnostics, file, route_config) = read_route(route, &canonical_root, &selected, disk);
        let judged = !diagnostic::has_errors(&route_diagnostics);
        let mut route_diagnostics = route_diagnostics;
        if judged && let Some(route_config) = route_config {
            let (hook, diagnostics) = normalise::route_hook(
                route,
                &route_config,
                &normalised.targets,
                &normalised.mcp_servers,
                &canonical_root,
                disk,
            );
            route_diagnostics.extend(diagnostics);
            normalised.hooks.extend(hook);
        }
        if !route_diagnostics.is_empty() {
            loaded.sources.extend(file);
        }
        loaded.diagnostics.extend(route_diagnostics);
    }
    normalised.hooks.sort_by(|a, b| a.id.cmp(&b.id));
    if config.hooks.len() + routes.len() > MAX_HOOKS_PER_BUNDLE {
        loaded.diagnostics.push(messages::too_many_hooks(config.hooks.len(), routes.len(), MAX_HOOKS_PER_BUNDLE, None));
        normalised.hooks.clear();
    }

    let mut plugin = plugin_info(config.plugin.as_ref(), &canonical_root, &mut loaded.diagnostics);
    loaded.diagnostics.extend(normalise::mcp::runtime_clash(&mut normalised.mcp_servers, &plugin.name));
    let mcp = plan::mcp::plan_servers(&normalised.mcp_servers, &plugin.name, &mut loaded.diagnostics);
    let parts = plan::parts::plan_parts(&normalised.parts, &plugin.name, &mut loaded.diagnostics);
    let Staged { value: mut plans, diagnostics } = plan::plan_with_servers(&normalised.hooks, &mcp);
    loaded.diagnostics.extend(diagnostics);
    plan::warm::assign(&mut plans, &normalised.hooks, normalised.warm_server);

    plugin.files = plugin_files(config.plugin.as_ref(), &canonical_root, disk, &mut loaded.diagnostics);
    fill_from_package_json(&mut plugin, &canonical_root, disk);
    let missing: Vec<&str> = [
        ("author", plugin.author.is_none()),
        ("description", plugin.description.is_none()),
        ("version", plugin.version.is_none()),
    ]
    .into_iter()
    .filter_map(|(field, absent)| absent.then_some(field))
    .collect();
    if !missing.is_empty() {
        let at = config.plugin.as_ref().map(|p| p.at.clone());
        loaded.diagnostics.push(messages::incomplete_plugin_metadata(&missing, at.as_ref()));
    }
    loaded.diagnostics.extend(types_visibility(&canonical_root, &source, &normalised, disk));
    // Later stages point into route and hook modules too: their text, for the labels.
    let mut labelled: Vec<Utf8PathBuf> =
        loaded.diagnostics.iter().flat_map(|d| d.labels.iter().map(|l| l.location.file.clone())).collect();
    labelled.sort();
    labelled.dedup();
    for file in labelled {
        let known = file == config_file || loaded.sources.iter().any(|s| s.path() == file);
        if !known
            && file.is_relative()
            && let Ok(text) = disk.read_to_string(&canonical_root.join(&file))
        {
            loaded.sources.push(SourceFile::new(file.to_string(), text));
        }
    }
    loaded.bundle = Some(Bundle { config_file, plugin, normalised, plans, mcp, parts, routes });
    loaded.sources.push(source);
    finish(loaded)
}

/// Whether TypeScript can see the declarations of the agent-bundle modules the config and the hook
/// modules import (their own imports are not followed: those are what the declarations are for).
fn types_visibility(
    root: &Utf8Path,
    config: &SourceFile,
    normalised: &normalise::Normalised,
    disk: &dyn Disk,
) -> Vec<Diagnostic> {
    let mut needed: Vec<(&'static str, crate::vocabulary::source::Location)> = Vec::new();
    let mut note = |file: &SourceFile| {
        for (module, offset) in types::imported_modules(file.path().as_str(), &file.text) {
            if !needed.iter().any(|(m, _)| *m == module) {
                // The JSX runtime's import is implicit (offset 0, nothing to underline) unless written.
                let written = file.text[offset..].starts_with(['\'', '"']);
                let end = if written { offset + module.len() + 2 } else { offset };
                let span = crate::vocabulary::source::Span::new(offset as u32, end as u32);
                needed.push((module, file.locate(span)));
            }
        }
    };
    note(config);
    for hook in &normalised.hooks {
        if let normalise::Handler::Module { path } = &hook.handler
            && let Ok(text) = disk.read_to_string(&root.join(path))
        {
            note(&SourceFile::new(path.clone(), text));
        }
    }
    needed.sort_by_key(|(module, _)| types::TSCONFIG_PATHS.iter().position(|(m, _)| m == module));
    types::check(root, &needed, disk)
}

/// Reads and judges one route's `export const config` (D2: statically, like the bundle's config). A
/// value that would need code to run is AB4806 here, the route's own code for it.
fn read_route(
    route: &discover::Route,
    root: &Utf8Path,
    selected: &[crate::vocabulary::target::Target],
    disk: &dyn Disk,
) -> (Vec<Diagnostic>, Option<SourceFile>, Option<config::RouteConfig>) {
    let Ok(text) = disk.read_to_string(&root.join(&route.path)) else { return (Vec::new(), None, None) };
    let file = SourceFile::new(route.path.clone(), text);
    let extracted = extract::extract_named_export(&file, "config");
    let mut diagnostics: Vec<Diagnostic> = extracted
        .diagnostics
        .into_iter()
        .map(|mut d| {
            if d.code == diagnostic::Code::NonStaticValue {
                d.code = diagnostic::Code::RouteConfigNotStatic;
            }
            d
        })
        .collect();
    // No `config` export is the empty config: every default.
    let mut route_config = config::RouteConfig::default();
    if let Some(node) = extracted.value {
        let Staged { value, diagnostics: read } = config::read_route_config(&file, &node);
        diagnostics.extend(read);
        diagnostics.extend(config::judge_route(route.family, &value, selected));
        route_config = value;
    }
    match extract::route_default_export(&file) {
        extract::DefaultExport::Missing => {
            let at = file.locate(crate::vocabulary::source::Span::default());
            diagnostics.push(messages::route_component(&route.path, "nothing (no default export)", &at));
        }
        extract::DefaultExport::Other { what, span } => {
            diagnostics.push(messages::route_component(&route.path, what, &file.locate(span)));
        }
        extract::DefaultExport::AsyncFunction | extract::DefaultExport::Unknown => {}
    }
    (diagnostics, Some(file), Some(route_config))
}

fn finish(mut loaded: Loaded) -> Loaded {
    diagnostic::sort(&mut loaded.diagnostics);
    loaded
}

fn plugin_info(plugin: Option<&PluginConfig>, root: &Utf8Path, diagnostics: &mut Vec<Diagnostic>) -> PluginInfo {
    let declared = plugin.and_then(|p| p.name.as_ref());
    let (name, name_from_folder) = match declared {
        Some(name) => {
            if !is_kebab_case(&name.value) {
                diagnostics.push(messages::invalid_plugin_name(&name.value, &kebab_case(&name.value), &name.at));
            }
            (name.value.clone(), false)
        }
        None => {
            let folder = root.file_name().unwrap_or("plugin");
            let derived = kebab_case(folder);
            (if derived.is_empty() { "plugin".to_string() } else { derived }, true)
        }
    };
    PluginInfo {
        name,
        name_from_folder,
        description: plugin.and_then(|p| p.description.clone()),
        version: plugin.and_then(|p| p.version.clone()),
        author: plugin.and_then(|p| p.author.clone()),
        license: plugin.and_then(|p| p.license.clone()),
        homepage: plugin.and_then(|p| p.homepage.clone()),
        repository: plugin.and_then(|p| p.repository.clone()),
        keywords: plugin.and_then(|p| p.keywords.clone()).unwrap_or_default(),
        interface: plugin.map(|p| interface(&p.interface, diagnostics)).unwrap_or_default(),
        files: PluginFiles::default(),
    }
}

/// `plugin.interface`: each key one a host's manifest `interface` has, with a value of the type
/// that host reads (AB4775).
fn interface(
    declared: &[(config::Spanned<String>, config::Spanned<serde_json::Value>)],
    diagnostics: &mut Vec<Diagnostic>,
) -> serde_json::Map<String, serde_json::Value> {
    let known = interface_types();
    let keys: Vec<&str> = known.keys().copied().collect();
    let mut interface = serde_json::Map::new();
    for (key, value) in declared {
        let Some(kind) = known.get(key.value.as_str()) else {
            diagnostics.push(messages::plugin_interface(
                &key.value,
                "is not a key any host's manifest reads",
                &keys,
                &key.at,
            ));
            continue;
        };
        let fits = match *kind {
            "string" => value.value.as_str().is_some_and(|s| !s.trim().is_empty()),
            "array" => value.value.as_array().is_some_and(|items| items.iter().all(|i| i.as_str().is_some())),
            "stringOrArray" => {
                value.value.as_str().is_some_and(|s| !s.trim().is_empty())
                    || value.value.as_array().is_some_and(|items| items.iter().all(|i| i.as_str().is_some()))
            }
            "asset" => value.value.as_str().is_some_and(|s| !s.trim().is_empty()),
            "assets" => value.value.as_array().is_some_and(|items| items.iter().all(|i| i.as_str().is_some())),
            _ => false,
        };
        if !fits {
            let what = match *kind {
                "array" => "must be an array of strings",
                "stringOrArray" => "must be a string or an array of strings",
                "asset" => "must be the path of a file in the bundle",
                "assets" => "must be an array of paths of files in the bundle",
                _ => "must be a non-empty string",
            };
            diagnostics.push(messages::plugin_interface(&key.value, what, &keys, &value.at));
            continue;
        }
        // A file is named `./<path>` from the plugin's root, where the build puts it.
        let dotted = |v: &serde_json::Value| {
            serde_json::Value::String(format!("./{}", v.as_str().unwrap_or_default().trim_start_matches("./")))
        };
        let written = match *kind {
            "asset" => dotted(&value.value),
            "assets" => serde_json::Value::Array(value.value.as_array().into_iter().flatten().map(dotted).collect()),
            _ => value.value.clone(),
        };
        interface.insert(key.value.clone(), written);
    }
    interface
}

/// Finds the README, license file and icon, and checks the icon is a PNG the plugin directory takes.
fn plugin_files(
    plugin: Option<&PluginConfig>,
    root: &Utf8Path,
    disk: &dyn Disk,
    diagnostics: &mut Vec<Diagnostic>,
) -> PluginFiles {
    let first = |names: &[&str]| names.iter().find(|name| disk.is_file(&root.join(name))).map(|name| name.to_string());
    let icon = match plugin.and_then(|p| p.icon.as_ref()) {
        Some(declared) => {
            let relative = declared.value.trim_start_matches("./");
            let absolute = crate::io::lexical_join(root, relative);
            let inside = crate::io::relative_to(&absolute, root);
            match (inside, disk.read(&absolute)) {
                (Some(inside), Ok(bytes)) => match icon::judge(&bytes) {
                    Ok(problem) => {
                        if let Some(problem) = problem {
                            diagnostics.push(messages::icon_unsuitable(&declared.value, &problem, Some(&declared.at)));
                        }
                        Some(inside)
                    }
                    Err(()) => {
                        diagnostics.push(messages::icon_invalid(&declared.value, "is not a PNG file", &declared.at));
                        None
                    }
                },
                (None, _) => {
                    diagnostics.push(messages::icon_invalid(
                        &declared.value,
                        "lies outside the bundle root",
                        &declared.at,
                    ));
                    None
                }
                (Some(_), Err(_)) => {
                    diagnostics.push(messages::icon_invalid(&declared.value, "does not exist", &declared.at));
                    None
                }
            }
        }
        None => {
            let found = first(&[DEFAULT_ICON]);
            if let Some(found) = &found
                && let Ok(bytes) = disk.read(&root.join(found))
            {
                match icon::judge(&bytes) {
                    Ok(None) => {}
                    Ok(Some(problem)) => diagnostics.push(messages::icon_unsuitable(found, &problem, None)),
                    Err(()) => diagnostics.push(messages::icon_unsuitable(found, "it is not a PNG file", None)),
                }
            }
            found
        }
    };
    let interface_assets = interface_assets(plugin, root, disk, diagnostics);
    PluginFiles { readme: first(README_NAMES), license: first(LICENSE_NAMES), icon, interface_assets }
}

/// The files `plugin.interface` names: each a file inside the bundle root (AB4775 otherwise).
fn interface_assets(
    plugin: Option<&PluginConfig>,
    root: &Utf8Path,
    disk: &dyn Disk,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let known = interface_types();
    let mut assets = Vec::new();
    for (key, value) in plugin.map_or(&[][..], |p| p.interface.as_slice()) {
        if !matches!(known.get(key.value.as_str()), Some(&"asset" | &"assets")) {
            continue;
        }
        let named: Vec<&str> = match &value.value {
            serde_json::Value::String(path) => vec![path.as_str()],
            serde_json::Value::Array(items) => items.iter().filter_map(|i| i.as_str()).collect(),
            _ => continue,
        };
        for path in named {
            let absolute = crate::io::lexical_join(root, path.trim_start_matches("./"));
            match crate::io::relative_to(&absolute, root).filter(|inside| !inside.is_empty()) {
                Some(inside) if disk.is_file(&absolute) => {
                    if !assets.contains(&inside) {
                        assets.push(inside);
                    }
                }
                inside => {
                    let why = if inside.is_none() { "lies outside the bundle root" } else { "is not a file" };
                    diagnostics.push(messages::plugin_interface_file(&key.value, path, why, &value.at));
                }
            }
        }
    }
    assets
}

/// Takes `author`, `version` and `description` from the bundle's package.json when the config gives
/// none: that is where a JavaScript project already says them.
fn fill_from_package_json(plugin: &mut PluginInfo, root: &Utf8Path, disk: &dyn Disk) {
    let Ok(text) = disk.read_to_string(&root.join("package.json")) else { return };
    let Ok(manifest) = serde_json::from_str::<serde_json::Value>(&text) else { return };
    let text_field = |key: &str| manifest.get(key).and_then(|v| v.as_str()).filter(|v| !v.trim().is_empty());
    if plugin.author.is_none() {
        plugin.author = package_json_author(&manifest);
    }
    if plugin.version.is_none() {
        plugin.version = text_field("version").map(str::to_string);
    }
    if plugin.license.is_none() {
        plugin.license = text_field("license").map(str::to_string);
    }
    if plugin.description.is_none() {
        plugin.description = text_field("description").map(str::to_string);
    }
}

fn package_json_author(manifest: &serde_json::Value) -> Option<Author> {
    match manifest.get("author")? {
        serde_json::Value::String(line) => Author::from_npm_line(line),
        serde_json::Value::Object(object) => {
            let field = |key: &str| object.get(key).and_then(|v| v.as_str()).map(str::to_string);
            Some(Author {
                name: field("name").filter(|n| !n.trim().is_empty())?,
                email: field("email"),
                url: field("url"),
            })
        }
        _ => None,
    }
}

/// Lowercase ASCII letters and digits in `-`-separated words: what every host accepts as a plugin name.
pub fn is_kebab_case(name: &str) -> bool {
    !name.is_empty()
        && name
            .split('-')
            .all(|word| !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

fn kebab_case(text: &str) -> String {
    let mut out = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        if c.is_ascii_uppercase() {
            if previous_lower {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
            previous_lower = false;
        } else if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
            previous_lower = true;
        } else {
            if !out.ends_with('-') && !out.is_empty() {
                out.push('-');
            }
            previous_lower = false;
        }
    }
    out.trim_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_case_rules() {
        assert!(is_kebab_case("hooks-and-scripts"));
        assert!(!is_kebab_case("Hooks"));
        assert!(!is_kebab_case("a--b"));
        assert!(!is_kebab_case("my plugin"));
        assert_eq!(kebab_case("My Plugin_v2"), "my-plugin-v2");
        assert_eq!(kebab_case("guardedTools"), "guarded-tools");
    }
}
