//! Normalisation: turns each hook declaration into a [`Hook`] record with resolved
//! paths, sorted de-duplicated targets and tools, and the original's name and id; and judges the
//! declaration's meaning (targets exist, handler files exist inside the bundle, selectors parse).
//! Host-specific questions (does a selector map on this host?) belong to [`crate::pipeline::plan`].

mod identity;
pub mod mcp;
pub mod parts;
mod route;

use std::collections::{BTreeMap, BTreeSet};

use camino::{Utf8Path, Utf8PathBuf};
use serde::Serialize;

pub use identity::{Identity, handler_slug, name_and_id};
pub use route::{Capability, route_hook};

use crate::diagnostic::{Diagnostic, Staged, messages};
use crate::hosts;
use crate::io::{Disk, lexical_join, relative_to};
use crate::pipeline::config::{Config, HandlerDeclaration, HookDeclaration, PayloadDeclaration, Spanned};
use crate::vocabulary::canonical::{CanonicalEvent, MAX_STATUS_MESSAGE_CHARS, MissingSelector, ResultPart, Selector};
use crate::vocabulary::hook_event::HookEvent;
use crate::vocabulary::native_name;
use crate::vocabulary::source::Location;
use crate::vocabulary::target::Target;

pub use crate::vocabulary::canonical::HANDLER_EXTENSIONS;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Hook {
    pub name: String,
    pub id: String,
    pub event: HookEvent,
    pub handler: Handler,
    /// The hosts this hook is declared for (sorted, de-duplicated). Hosts without hooks are never here.
    pub targets: Vec<Target>,
    /// Whether `targets` came from the entry itself rather than from the config.
    #[serde(skip)]
    pub targets_declared: bool,
    pub tools: Vec<Selector>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub native_tools: Vec<NativeSelector>,
    /// `mcp:<server>` and `mcp:<server>/<tool>`: tools of the plugin's own MCP servers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mcp_tools: Vec<mcp::McpToolSelector>,
    pub timeout: Timeout,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Any failure of the hook blocks the tool (beforeTool, and routes of families that can deny;
    /// D6, D13).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fail_closed: bool,
    /// Where `failClosed` is declared, for the plan's diagnostics.
    #[serde(skip)]
    pub fail_closed_at: Option<Location>,
    /// The declared stdin limit (`maxInputBytes`); `None`: the plan's default (D13).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_input_bytes: Option<u64>,
    /// sessionStart only: the session sources it runs for (sorted, de-duplicated; empty: all).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<String>,
    /// A route's own budget (`config.timeoutMs`): its `signal` aborts then, inside the host's
    /// deadline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_ms: Option<u32>,
    #[serde(skip)]
    pub budget_at: Option<Location>,
    /// A route with `runtime: 'shared'`: rendered in the plugin's MCP server where a host has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared: Option<SharedRuntime>,
    /// Where the declaration is, for diagnostics of later stages.
    #[serde(skip)]
    pub declared_at: Location,
    #[serde(skip)]
    pub tools_at: Option<Location>,
    /// Where each canonical selector is written, for the plan's diagnostics.
    #[serde(skip)]
    pub selector_at: Vec<(Selector, Location)>,
    /// What the hook does on a host that lacks one of its selectors (`onMissingSelector`).
    #[serde(skip_serializing_if = "is_default")]
    pub on_missing_selector: MissingSelector,
    /// `async: true`: the host does not wait for the hook (its own key, or the wrapper detaches).
    #[serde(rename = "async", skip_serializing_if = "std::ops::Not::not")]
    pub run_async: bool,
    /// What a host that shows one displays while the hook runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// The stable JSON the name's hash is taken over: what "the declaration" is for `--explain`.
    #[serde(skip)]
    pub identity: String,
}

impl Hook {
    /// The hook as a diagnostic names it.
    pub fn site(&self) -> crate::diagnostic::HookSite<'_> {
        crate::diagnostic::HookSite {
            name: &self.name,
            event: self.event,
            targets: &self.targets,
            declared_at: &self.declared_at,
            tools_at: self.tools_at.as_ref(),
        }
    }
}

/// A shared route's runtime choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SharedRuntime {
    /// `fallback: 'standalone'`: where no shared runtime answers (or a host has none), the route
    /// renders in its own wrapper.
    pub fallback: bool,
    #[serde(skip)]
    pub declared_at: Option<Location>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Handler {
    /// A module compiled into the wrapper. `path` is relative to the bundle root.
    Module { path: String },
    /// A file shipped in a payload and run as is.
    Prebuilt {
        path: String,
        payload: String,
        /// `<payload>/<path inside the payload>`: where the file lands in the artifact.
        #[serde(rename = "artifactPath")]
        artifact_path: String,
    },
}

impl Handler {
    pub fn path(&self) -> &str {
        match self {
            Handler::Module { path } | Handler::Prebuilt { path, .. } => path,
        }
    }
}

/// `<target>:<native tool name>` from `tools`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NativeSelector {
    pub target: Target,
    pub name: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Timeout {
    #[serde(serialize_with = "host_default")]
    HostDefault,
    Seconds(u32),
}

fn host_default<S: serde::Serializer>(serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str("host-default")
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Payload {
    pub name: String,
    /// The source folder, relative to the bundle root.
    pub source: String,
    pub targets: Vec<Target>,
    /// Ship a symlink whose target lies outside the bundle root and its node_modules as that link
    /// (`keepOutsideLinks: true`), instead of refusing it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub keep_outside_links: bool,
    /// The payload's key in the config.
    #[serde(skip)]
    pub declared_at: Location,
}

/// A package the config asks to ship whole instead of bundling (`bundle.external`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ExternalPackage {
    pub name: String,
    #[serde(skip)]
    pub declared_at: Location,
}

/// The whole bundle after normalisation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Normalised {
    /// The config's targets (or the default selection), including hook-less ones such as `portable`.
    pub targets: Vec<Target>,
    /// Hooks sorted by id.
    pub hooks: Vec<Hook>,
    pub payloads: Vec<Payload>,
    /// Packages shipped whole instead of bundled (`bundle.external`), sorted by name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub external: Vec<ExternalPackage>,
    /// `bundle.keepOutsideLinks`: a package's symlinks that lead outside ship as links.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub keep_outside_links: bool,
    /// `bundle.combineCommands: false`: each hook keeps its own command (they share one per call by
    /// default).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub separate_commands: bool,
    /// `bundle.warmServer: true`: the plugin's MCP server answers the hooks that may fail open where
    /// the host can call it from a hook entry.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub warm_server: bool,
    /// The plugin's own MCP servers (`mcpServers`), sorted by name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mcp_servers: Vec<mcp::McpServer>,
    /// `bundle.define`: (name, replacement code), sorted by name; part of the bundle cache's key.
    pub define: Vec<(String, String)>,
    /// The plugin's skills, commands, agents and context file, by kind.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<parts::Part>,
}

impl Normalised {
    /// The hooks in the order hook documents list them: canonical event, then id.
    pub fn hooks_in_document_order(&self) -> Vec<&Hook> {
        let mut hooks: Vec<&Hook> = self.hooks.iter().collect();
        hooks.sort_by(|a, b| (a.event, &a.id).cmp(&(b.event, &b.id)));
        hooks
    }
}

/// Normalises a config. `root` must be the canonical, absolute bundle root.
pub fn normalise(config: &Config, root: &Utf8Path, disk: &dyn Disk) -> Staged<Normalised> {
    let mut n = Normaliser { root, disk, diagnostics: Vec::new() };
    let targets = n.config_targets(config);
    let payloads = n.payloads(&config.payloads, &targets);
    let mcp_servers = n.mcp_servers(&config.mcp_servers, &targets);
    let parts = n.parts(&config.parts, &targets);
    let mut hooks: Vec<Hook> = Vec::new();
    let mut first_declared: BTreeMap<String, Location> = BTreeMap::new();
    for declaration in &config.hooks {
        let Some(hook) = n.hook(declaration, &targets, &payloads, &mcp_servers) else { continue };
        if let Some(first) = first_declared.get(&hook.id) {
            n.diagnostics.push(messages::duplicate_hook(&hook.name, &hook.declared_at, first));
            continue;
        }
        first_declared.insert(hook.id.clone(), hook.declared_at.clone());
        hooks.push(hook);
    }
    hooks.sort_by(|a, b| a.id.cmp(&b.id));
    let external = n.external(config.bundle.as_ref().map_or(&[][..], |b| &b.external));
    let keep_outside_links =
        config.bundle.as_ref().and_then(|b| b.keep_outside_links.as_ref()).is_some_and(|keep| keep.value);
    let define = n.defines(config.bundle.as_ref().map_or(&[][..], |b| b.define.as_slice()));
    let separate_commands =
        config.bundle.as_ref().and_then(|b| b.combine_commands.as_ref()).is_some_and(|combine| !combine.value);
    let warm_server = config.bundle.as_ref().and_then(|b| b.warm_server.as_ref()).is_some_and(|warm| warm.value);
    Staged {
        value: Normalised {
            targets,
            hooks,
            payloads,
            external,
            keep_outside_links,
            separate_commands,
            warm_server,
            define,
            mcp_servers,
            parts,
        },
        diagnostics: n.diagnostics,
    }
}

struct Normaliser<'a> {
    root: &'a Utf8Path,
    disk: &'a dyn Disk,
    diagnostics: Vec<Diagnostic>,
}

impl Normaliser<'_> {
    /// The config's `targets`, or the default selection (D3). Unknown names are reported and dropped.
    fn config_targets(&mut self, config: &Config) -> Vec<Target> {
        let Some(declared) = &config.targets else { return Target::DEFAULT_SELECTION.to_vec() };
        if declared.value.is_empty() {
            self.diagnostics.push(messages::empty_targets("the config's `targets`", &declared.at));
        }
        let targets = self.known_targets(&declared.value, messages::unknown_target);
        // Two forms of one host's plugin would be written at the same places.
        let at = |target: Target| declared.value.iter().find(|n| n.value == target.name()).map(|n| &n.at);
        for &form in &targets {
            if let Some(base) = crate::hosts::table(form).form_of.filter(|base| targets.contains(base))
                && let (Some(form_at), Some(base_at)) = (at(form), at(base))
            {
                self.diagnostics.push(messages::target_forms_together(form, base, form_at, base_at));
            }
        }
        targets
    }

    fn known_targets(&mut self, names: &[Spanned<String>], unknown: fn(&str, &Location) -> Diagnostic) -> Vec<Target> {
        let mut targets = BTreeSet::new();
        for name in names {
            match Target::from_name(&name.value) {
                Some(target) => {
                    targets.insert(target);
                }
                None => self.diagnostics.push(unknown(&name.value, &name.at)),
            }
        }
        targets.into_iter().collect()
    }

    /// A file beside `missing` (or in a folder of a similar name) that its path may be a typo of, as
    /// a root-relative path.
    fn similar_file(&self, missing: &Utf8Path) -> Option<String> {
        let mut dir = missing.parent()?.to_path_buf();
        if !self.disk.is_dir(&dir) {
            let parent = dir.parent()?;
            let names = self.disk.list_dir(parent).ok()?;
            let name = crate::vocabulary::suggest::did_you_mean(dir.file_name()?, names.iter().map(String::as_str))?;
            dir = parent.join(name);
        }
        let names = self.disk.list_dir(&dir).ok()?;
        let found = crate::vocabulary::suggest::did_you_mean(missing.file_name()?, names.iter().map(String::as_str))?;
        self.inside_root(&dir.join(found))
    }

    /// `bundle.external`: npm package names (`pkg`, `@scope/pkg`), each once.
    fn external(&mut self, names: &[Spanned<String>]) -> Vec<ExternalPackage> {
        let mut external: Vec<ExternalPackage> = Vec::new();
        for name in names {
            let value = name.value.trim();
            if !is_package_name(value) {
                self.diagnostics.push(messages::invalid_external(value, &name.at));
            } else if !external.iter().any(|e| e.name == value) {
                external.push(ExternalPackage { name: value.to_string(), declared_at: name.at.clone() });
            }
        }
        external.sort_by(|a, b| a.name.cmp(&b.name));
        external
    }

    fn payloads(&mut self, declarations: &[PayloadDeclaration], selected: &[Target]) -> Vec<Payload> {
        let mut payloads = Vec::new();
        for declaration in declarations {
            let name = &declaration.name;
            if matches!(name.value.as_str(), "" | "." | "..") || name.value.contains(['/', '\\']) {
                self.diagnostics.push(messages::invalid_payload_name(&name.value, &name.at));
                continue;
            }
            let layout = crate::hosts::layout::layout();
            let taken = layout.claims_on_name(&name.value);
            if !taken.is_empty() {
                let taken: Vec<(String, &str, String)> =
                    taken.iter().map(|c| (c.owner.to_string(), c.role.described(), c.shown())).collect();
                let folders: Vec<&str> = layout.host_folders().map(|(_, folder)| folder).collect();
                self.diagnostics.push(messages::reserved_payload_name(&name.value, &taken, &folders, &name.at));
                continue;
            }
            let targets = match &declaration.targets {
                Some(targets) => self.known_targets(&targets.value, messages::unknown_target),
                None => selected.to_vec(),
            };
            let absolute = lexical_join(self.root, &declaration.source.value);
            let Some(source) = self.inside_root(&absolute) else {
                self.diagnostics
                    .push(messages::payload_outside_root(&declaration.source.value, &declaration.source.at));
                continue;
            };
            if !self.disk.is_dir(&absolute) {
                self.diagnostics
                    .push(messages::payload_source_missing(&declaration.source.value, &declaration.source.at));
            }
            payloads.push(Payload {
                name: name.value.clone(),
                source,
                targets,
                keep_outside_links: declaration.keep_outside_links.as_ref().is_some_and(|keep| keep.value),
                declared_at: name.at.clone(),
            });
        }
        payloads
    }

    /// The root-relative path of `absolute` when it is inside the bundle root, following symlinks
    /// of paths that exist.
    fn inside_root(&self, absolute: &Utf8Path) -> Option<String> {
        let relative = relative_to(absolute, self.root)?;
        match self.disk.canonicalize(absolute) {
            Some(real) if relative_to(&real, self.root).is_none() => None,
            _ => Some(relative),
        }
    }

    /// One config-declared hook, judged, or `None` when it has an error.
    fn hook(
        &mut self,
        declaration: &HookDeclaration,
        selected: &[Target],
        payloads: &[Payload],
        servers: &[mcp::McpServer],
    ) -> Option<Hook> {
        let errors_before = self.error_count();
        let event = declaration.event;
        let handler = self.handler(declaration, payloads);

        let tools_at = declaration.tools.first().map(|t| t.at.clone());
        if !declaration.tools.is_empty() && !event.accepts_tools() {
            self.diagnostics
                .push(messages::tools_on_non_tool_event(event, tools_at.as_ref().unwrap_or(&declaration.at)));
        }
        let (targets, targets_declared) = self.hook_targets(declaration, selected);
        let (tools, native_tools, mcp_tools) = self.selectors(&declaration.tools, &targets, servers);
        let skippable = !tools.is_empty() || !mcp_tools.is_empty();
        let on_missing_selector = self.missing_selector(declaration.on_missing_selector.as_ref(), skippable);
        let timeout = self.timeout(declaration.timeout.as_ref());
        let fail_closed = self.fail_closed(declaration);
        let sources = self.sources(declaration);
        let run_async = self.run_async(declaration, handler.as_ref());
        let status_message = self.status_message(declaration);
        let max_input_bytes = match (&declaration.max_input_bytes, &handler) {
            (Some(declared), Some(Handler::Prebuilt { .. })) => {
                self.diagnostics.push(messages::max_input_bytes_on_prebuilt(&declared.at));
                None
            }
            (declared, _) => self.max_input_bytes(declared.as_ref()),
        };
        let args = self.args(declaration, handler.as_ref());
        self.payload_covers_targets(declaration, handler.as_ref(), payloads, &targets);

        let handler = handler?;
        if self.error_count() > errors_before {
            return None;
        }
        let mut hook = Hook {
            // Named below, from everything else.
            name: String::new(),
            id: String::new(),
            identity: String::new(),
            event: event.into(),
            handler,
            targets,
            targets_declared,
            tools,
            native_tools,
            mcp_tools,
            timeout,
            args,
            fail_closed,
            fail_closed_at: declaration.fail_closed.as_ref().map(|flag| flag.at.clone()),
            max_input_bytes,
            sources,
            budget_ms: None,
            budget_at: None,
            shared: None,
            declared_at: declaration.at.clone(),
            tools_at,
            selector_at: selector_locations(&declaration.tools),
            on_missing_selector,
            run_async,
            status_message,
        };
        identify(&mut hook, event);
        Some(hook)
    }

    /// The hosts a hook is built for: its `targets`, each judged, else every selected host that
    /// has hooks; and whether it declared them.
    fn hook_targets(&mut self, declaration: &HookDeclaration, selected: &[Target]) -> (Vec<Target>, bool) {
        let Some(declared) = &declaration.targets else {
            return (hosts::built_hosts(selected), false);
        };
        if declared.value.is_empty() {
            self.diagnostics
                .push(messages::empty_targets(&format!("the `{}` hook's `targets`", declaration.event), &declared.at));
        }
        let mut targets = BTreeSet::new();
        for name in &declared.value {
            match Target::from_name(&name.value) {
                None => self.diagnostics.push(messages::unknown_entry_target(&name.value, &name.at)),
                Some(target) if !hosts::table(target).has_hooks() => {
                    let why = hosts::table(target).no_hooks_reason.clone().unwrap_or_default();
                    self.diagnostics.push(messages::portable_target(target, &why, &name.at))
                }
                Some(target) if !selected.contains(&target) => {
                    self.diagnostics.push(messages::entry_target_not_selected(target, selected, &name.at))
                }
                // A host another host's plugin serves (Kilo CLI) gets that plugin's hook.
                Some(target) => {
                    targets.insert(hosts::table(target).built_as());
                }
            }
        }
        (targets.into_iter().collect(), true)
    }

    /// The declared `failClosed`, judged: beforeTool's only.
    fn fail_closed(&mut self, declaration: &HookDeclaration) -> bool {
        match &declaration.fail_closed {
            Some(flag) if flag.value && declaration.event != CanonicalEvent::BeforeTool => {
                self.diagnostics.push(messages::fail_closed_on_other_event(declaration.event, &flag.at));
                false
            }
            Some(flag) => flag.value,
            None => false,
        }
    }

    /// The declared `async`, judged: not on an event that decides, not for a prebuilt handler.
    fn run_async(&mut self, declaration: &HookDeclaration, handler: Option<&Handler>) -> bool {
        match (&declaration.run_async, handler) {
            (Some(flag), _) if flag.value && CanonicalEvent::refuses(declaration.event, ResultPart::Deny).is_none() => {
                self.diagnostics.push(messages::async_on_deciding_event(declaration.event, &flag.at));
                false
            }
            (Some(flag), Some(Handler::Prebuilt { .. })) if flag.value => {
                self.diagnostics.push(messages::async_prebuilt(&flag.at));
                false
            }
            (Some(flag), _) => flag.value,
            (None, _) => false,
        }
    }

    /// The declared `statusMessage`, judged (not blank, not too long) and trimmed.
    fn status_message(&mut self, declaration: &HookDeclaration) -> Option<String> {
        match &declaration.status_message {
            Some(text) if text.value.trim().is_empty() || text.value.chars().count() > MAX_STATUS_MESSAGE_CHARS => {
                self.diagnostics.push(messages::invalid_status_message(
                    &text.value,
                    MAX_STATUS_MESSAGE_CHARS,
                    &text.at,
                ));
                None
            }
            Some(text) => Some(text.value.trim().to_string()),
            None => None,
        }
    }

    /// The declared `args`: a prebuilt handler's only.
    fn args(&mut self, declaration: &HookDeclaration, handler: Option<&Handler>) -> Vec<String> {
        match (&declaration.args, handler) {
            (Some(args), Some(Handler::Prebuilt { .. })) => args.value.clone(),
            (Some(args), Some(Handler::Module { .. })) if !args.value.is_empty() => {
                self.diagnostics.push(messages::args_without_prebuilt(&args.at));
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    /// A prebuilt handler's payload must be built for every host the hook is.
    fn payload_covers_targets(
        &mut self,
        declaration: &HookDeclaration,
        handler: Option<&Handler>,
        payloads: &[Payload],
        targets: &[Target],
    ) {
        if let (Some(Handler::Prebuilt { payload, .. }), HandlerDeclaration::Prebuilt(path)) =
            (handler, &declaration.handler)
        {
            let payload = payloads.iter().find(|p| &p.name == payload).expect("handler names a known payload");
            for target in targets {
                if !payload.targets.contains(target) {
                    self.diagnostics.push(messages::payload_lacks_target(&payload.name, *target, &path.at));
                }
            }
        }
    }

    /// The declared `onMissingSelector`, judged: a known value, on a hook with canonical selectors or
    /// selectors of the plugin's own servers (`skippable`), which a host may lack.
    pub(super) fn missing_selector(&mut self, declared: Option<&Spanned<String>>, skippable: bool) -> MissingSelector {
        let Some(declared) = declared else { return MissingSelector::Error };
        match MissingSelector::from_name(declared.value.trim()) {
            None => {
                self.diagnostics.push(messages::missing_selector_invalid(&declared.value, &declared.at));
                MissingSelector::Error
            }
            Some(_) if !skippable => {
                self.diagnostics.push(messages::missing_selector_without_tools(&declared.at));
                MissingSelector::Error
            }
            Some(choice) => choice,
        }
    }

    fn handler(&mut self, declaration: &HookDeclaration, payloads: &[Payload]) -> Option<Handler> {
        match &declaration.handler {
            HandlerDeclaration::Invalid => None,
            HandlerDeclaration::Module(path) => {
                let absolute = lexical_join(self.root, &path.value);
                let Some(relative) = self.inside_root(&absolute) else {
                    self.diagnostics.push(messages::handler_outside_root(&path.value, &path.at));
                    return None;
                };
                if self.disk.is_dir(&absolute) {
                    let index = HANDLER_EXTENSIONS
                        .iter()
                        .map(|ext| absolute.join(format!("index.{ext}")))
                        .find(|candidate| self.disk.is_file(candidate))
                        .and_then(|found| self.inside_root(&found));
                    self.diagnostics.push(messages::handler_is_folder(&path.value, index.as_deref(), &path.at));
                    return None;
                }
                let extension = relative.rsplit_once('.').map(|(_, ext)| ext).unwrap_or("");
                if !HANDLER_EXTENSIONS.contains(&extension) {
                    let with_extension = HANDLER_EXTENSIONS
                        .iter()
                        .map(|ext| Utf8PathBuf::from(format!("{absolute}.{ext}")))
                        .find(|candidate| self.disk.is_file(candidate))
                        .and_then(|found| self.inside_root(&found));
                    match with_extension {
                        Some(found) => self.diagnostics.push(messages::handler_without_extension(
                            &path.value,
                            &relative,
                            &found,
                            &path.at,
                        )),
                        None => self.diagnostics.push(messages::handler_unsupported_extension(&path.value, &path.at)),
                    }
                    return None;
                }
                if !self.disk.is_file(&absolute) && self.disk.exists(&absolute) {
                    self.diagnostics.push(messages::handler_not_regular(&path.value, &relative, &path.at));
                    return None;
                }
                if !self.disk.is_file(&absolute) {
                    let similar = self.similar_file(&absolute);
                    self.diagnostics.push(messages::handler_not_found(
                        &path.value,
                        &relative,
                        similar.as_deref(),
                        &path.at,
                    ));
                    return None;
                }
                Some(Handler::Module { path: relative })
            }
            HandlerDeclaration::Prebuilt(path) => {
                let absolute = lexical_join(self.root, &path.value);
                let Some(relative) = self.inside_root(&absolute) else {
                    self.diagnostics.push(messages::handler_outside_root(&path.value, &path.at));
                    return None;
                };
                // The innermost payload whose source folder contains the file.
                let container = payloads
                    .iter()
                    .filter_map(|p| {
                        let inner = relative.strip_prefix(&p.source)?.strip_prefix('/')?;
                        Some((p, inner))
                    })
                    .max_by_key(|(p, _)| p.source.len());
                let Some((payload, inner)) = container else {
                    self.diagnostics.push(messages::prebuilt_outside_payload(
                        &path.value,
                        &payloads.iter().map(|p| p.source.as_str()).collect::<Vec<_>>(),
                        &path.at,
                    ));
                    return None;
                };
                if !self.disk.is_file(&absolute) {
                    self.diagnostics.push(messages::prebuilt_not_built(&path.value, &path.at));
                }
                Some(Handler::Prebuilt {
                    artifact_path: format!("{}/{}", payload.name, inner),
                    payload: payload.name.clone(),
                    path: relative,
                })
            }
        }
    }

    /// Splits `tools` into canonical selectors and `<target>:<name>` native selectors, and judges each
    /// native selector against its host (D13): it is a tool name in which `*` and `.*` stand for any
    /// run of characters, and one that could never match, or only repeats what the hook says without
    /// it, is an error with a hint.
    fn selectors(
        &mut self,
        tools: &[Spanned<String>],
        hook_targets: &[Target],
        servers: &[mcp::McpServer],
    ) -> (Vec<Selector>, Vec<NativeSelector>, Vec<mcp::McpToolSelector>) {
        let mut canonical = BTreeSet::new();
        let mut native = BTreeSet::new();
        let mut own = BTreeSet::new();
        let mut only_wildcards: Vec<(Target, &str, &Location)> = Vec::new();
        for tool in tools {
            if let Some(selector) = Selector::from_name(&tool.value) {
                canonical.insert(selector);
                continue;
            }
            if let Some(selector) = self.mcp_selector(tool, servers) {
                if !selector.server.is_empty() {
                    own.insert(selector);
                }
                continue;
            }
            let parsed = tool.value.split_once(':').map(|(t, n)| (t.trim(), n.trim()));
            let Some((target_name, name)) = parsed.filter(|(t, _)| !t.is_empty()) else {
                self.diagnostics.push(messages::invalid_selector(&tool.value, &tool.at));
                continue;
            };
            let Some(target) = Target::from_name(target_name) else {
                let diagnostic = if name.is_empty() {
                    messages::invalid_selector(&tool.value, &tool.at)
                } else {
                    messages::native_selector_unknown_target(target_name, &tool.at)
                };
                self.diagnostics.push(diagnostic);
                continue;
            };
            let table = hosts::table(target);
            let Some(surface) = &table.hooks else {
                self.diagnostics.push(messages::native_selector_hookless_target(target, &tool.at));
                continue;
            };
            if name.is_empty() {
                let example = example_tool(table);
                self.diagnostics.push(messages::native_selector_empty_name(target, example, &tool.at));
                continue;
            }
            // A host's tool names are its plugin's in each of its forms: `claude:` selects for claude-mod;
            // those of a host another host's plugin serves are that plugin's (`kilo:` for opencode).
            let target = hosts::table(target).built_as();
            let target = match hook_targets.contains(&target) {
                true => target,
                false => {
                    hook_targets.iter().copied().find(|t| hosts::table(*t).form_of == Some(target)).unwrap_or(target)
                }
            };
            if !hook_targets.contains(&target) {
                self.diagnostics.push(messages::native_selector_unselected_target(target, hook_targets, &tool.at));
                continue;
            }
            let refused = native_name::regex_characters(name);
            if !refused.is_empty() {
                let meant = native_name::meant_names(name);
                self.diagnostics.push(messages::native_selector_regex(target, name, &refused, &meant, &tool.at));
                continue;
            }
            // A hosted tool never fires a hook, whatever the case it is written in.
            if surface.hosted_tools.iter().any(|hosted| hosted.eq_ignore_ascii_case(name)) {
                self.diagnostics.push(messages::hosted_tool_selector(&table.name(), name, &tool.at));
                continue;
            }
            if let Some(case) = case_of_a_known_tool(table, name) {
                self.diagnostics.push(messages::native_selector_case(
                    &table.name(),
                    name,
                    case.known,
                    case.prefix,
                    &case.meant,
                    &tool.at,
                ));
                continue;
            }
            if native_name::only_wildcard(name) {
                only_wildcards.push((target, name, &tool.at));
            }
            native.insert(NativeSelector { target, name: name.to_string() });
        }
        // A lone wildcard means every tool of its host: on a hook of that host alone it is `tools` left
        // out, and beside the host's other native selectors it swallows them; either is surely a
        // mistake. Beside canonical selectors on a hook of several hosts it is what it says: every tool
        // here, the canonical ones elsewhere.
        let mut refused: Vec<NativeSelector> = Vec::new();
        for (target, name, at) in only_wildcards {
            let own = native.iter().find(|n| n.target == target && n.name != name);
            let own = own.map(|n| format!("{}:{}", n.target, n.name));
            let alone = hook_targets == [target];
            if !alone && own.is_none() {
                continue;
            }
            let other = own.or_else(|| canonical.first().map(|s| s.name().to_string()));
            let example = example_tool(hosts::table(target));
            self.diagnostics.push(messages::native_selector_only_wildcard(target, name, other.as_deref(), example, at));
            refused.push(NativeSelector { target, name: name.to_string() });
        }
        native.retain(|n| !refused.contains(n));
        (canonical.into_iter().collect(), native.into_iter().collect(), own.into_iter().collect())
    }

    /// The `sources` of a sessionStart entry, each one a source some host sends.
    fn sources(&mut self, declaration: &HookDeclaration) -> Vec<String> {
        let Some(declared) = &declaration.sources else { return Vec::new() };
        if declaration.event != CanonicalEvent::SessionStart {
            self.diagnostics.push(messages::sources_on_other_event(declaration.event, &declared.at));
            return Vec::new();
        }
        if declared.value.is_empty() {
            self.diagnostics.push(messages::empty_targets("the `sessionStart` hook's `sources`", &declared.at));
        }
        let known = hosts::session_sources();
        let mut sources = BTreeSet::new();
        for source in &declared.value {
            if known.contains(&source.value.as_str()) {
                sources.insert(source.value.clone());
            } else {
                self.diagnostics.push(messages::unknown_session_source(&source.value, &known, &source.at));
            }
        }
        sources.into_iter().collect()
    }

    /// `bundle.define`, judged as esbuild judges it: each name an identifier or a member chain
    /// (`process.env.NODE_ENV`), each replacement a JSON literal or such a name; sorted by name, each
    /// once.
    fn defines(&mut self, declared: &[(Spanned<String>, Spanned<String>)]) -> Vec<(String, String)> {
        let is_name = |text: &str| {
            !text.is_empty()
                && text.split('.').all(|part| {
                    let mut chars = part.chars();
                    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
                        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
                })
        };
        let mut defines = BTreeMap::new();
        for (name, code) in declared {
            if !is_name(&name.value) {
                self.diagnostics.push(messages::define_name_invalid(&name.value, &name.at));
                continue;
            }
            let code_text = code.value.trim();
            if serde_json::from_str::<serde_json::Value>(code_text).is_err() && !is_name(code_text) {
                self.diagnostics.push(messages::define_value_invalid(&name.value, &code.value, &code.at));
                continue;
            }
            defines.insert(name.value.clone(), code_text.to_string());
        }
        defines.into_iter().collect()
    }

    /// A declared `timeout` (a config entry's, or a route's), checked to be whole seconds in range.
    pub(super) fn timeout(&mut self, declared: Option<&crate::pipeline::config::Spanned<f64>>) -> Timeout {
        let Some(timeout) = declared else { return Timeout::HostDefault };
        let seconds = timeout.value;
        let max = crate::vocabulary::canonical::MAX_TIMEOUT_SECONDS;
        let shown = crate::pipeline::extract::format_number(seconds);
        if seconds.fract() != 0.0 || seconds < 1.0 {
            self.diagnostics.push(messages::invalid_timeout(&shown, None, &timeout.at));
            Timeout::HostDefault
        } else if seconds > f64::from(max) {
            self.diagnostics.push(messages::timeout_too_long(&shown, max, &timeout.at));
            Timeout::HostDefault
        } else {
            Timeout::Seconds(seconds as u32)
        }
    }

    /// A declared `maxInputBytes`, checked to be a whole byte count in range.
    fn max_input_bytes(&mut self, declared: Option<&crate::pipeline::config::Spanned<f64>>) -> Option<u64> {
        let declared = declared?;
        let (min, max) = crate::vocabulary::canonical::MAX_INPUT_BYTES_RANGE;
        let bytes = declared.value;
        if bytes.fract() == 0.0 && bytes >= min as f64 && bytes <= max as f64 {
            return Some(bytes as u64);
        }
        let shown = crate::pipeline::extract::format_number(bytes);
        let default_mib = crate::vocabulary::canonical::DEFAULT_MAX_INPUT_BYTES / (1024 * 1024);
        self.diagnostics.push(messages::invalid_max_input_bytes(&shown, (min, max), default_mib, &declared.at));
        None
    }

    fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

/// A native selector's name that differs from a tool name or name prefix of its host only in letter
/// case.
struct CaseMismatch<'t> {
    /// The host's tool name (`Bash`) or name prefix (`mcp__`).
    known: &'t str,
    prefix: bool,
    /// The name with the case corrected.
    meant: String,
}

/// Names a config-declared hook: the stable JSON of what it declares (its identity), and the name
/// and id the original derives from that JSON's hash.
fn identify(hook: &mut Hook, event: CanonicalEvent) {
    let prebuilt_path = match &hook.handler {
        Handler::Prebuilt { artifact_path, .. } => Some(artifact_path.as_str()),
        Handler::Module { .. } => None,
    };
    let identity = Identity {
        event,
        handler: hook.handler.path(),
        targets: &hook.targets,
        tools: &hook.tools,
        native_tools: &hook.native_tools,
        mcp_tools: &hook.mcp_tools,
        timeout: hook.timeout,
        args: &hook.args,
        prebuilt_path,
        fail_closed: hook.fail_closed,
        sources: &hook.sources,
        max_input_bytes: hook.max_input_bytes,
        on_missing_selector: hook.on_missing_selector,
        run_async: hook.run_async,
        status_message: hook.status_message.as_deref(),
    };
    let (name, id) = name_and_id(event, hook.handler.path(), &identity.hash8());
    let identity = identity.stable_json();
    (hook.name, hook.id, hook.identity) = (name, id, identity);
}

/// Whether `name` differs only in letter case from a tool name of `table` (`bash` → `Bash`), or its
/// start from a known name prefix (`MCP__github__*` → `mcp__github__*`): host matchers are
/// case-sensitive, so such a selector never matches.
fn case_of_a_known_tool<'t>(table: &'t hosts::HostTable, name: &str) -> Option<CaseMismatch<'t>> {
    let names = table.tool_names();
    if names.contains(&name) {
        return None;
    }
    if let Some(known) = names.into_iter().find(|known| known.eq_ignore_ascii_case(name)) {
        return Some(CaseMismatch { known, prefix: false, meant: known.to_string() });
    }
    table.tool_name_prefixes().into_iter().find_map(|prefix| {
        let start = name.get(..prefix.len())?;
        (start != prefix && start.eq_ignore_ascii_case(prefix)).then(|| CaseMismatch {
            known: prefix,
            prefix: true,
            meant: format!("{prefix}{}", &name[prefix.len()..]),
        })
    })
}

/// A tool name of `table`'s host for a hint: its shell tool, the one every host has.
fn example_tool(table: &hosts::HostTable) -> Option<&str> {
    let shell = table.selector(Selector::Shell).ok().and_then(|m| m.matches.first()).map(String::as_str);
    shell.or_else(|| table.tool_names().first().copied())
}

/// Where a root-relative path is on disk.
pub fn absolute_path(root: &Utf8Path, relative: &str) -> Utf8PathBuf {
    lexical_join(root, relative)
}

/// An npm package name: `name` or `@scope/name`, lowercase URL-safe characters, no path beyond.
fn is_package_name(name: &str) -> bool {
    let plain = |part: &str| {
        !part.is_empty()
            && !part.starts_with('.')
            && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-._~".contains(&b))
    };
    match name.strip_prefix('@') {
        Some(scoped) => scoped.split_once('/').is_some_and(|(scope, rest)| plain(scope) && plain(rest)),
        None => plain(name),
    }
}

/// Where each canonical selector of a `tools` list is written (its first mention).
pub(super) fn selector_locations(tools: &[Spanned<String>]) -> Vec<(Selector, Location)> {
    let mut found: Vec<(Selector, Location)> = Vec::new();
    for tool in tools {
        if let Some(selector) = Selector::from_name(&tool.value)
            && !found.iter().any(|(s, _)| *s == selector)
        {
            found.push((selector, tool.at.clone()));
        }
    }
    found
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}
