//! The artifact's layout: every path a host, the shared route runtime or agent-bundle itself writes
//! in a plugin folder, derived once from the host tables (their documents, manifests, icons, MCP
//! documents and own folders) and from agent-bundle's own paths, which are spelled here and nowhere
//! else. Payload names are checked against it (a payload may not take a name the layout gives
//! anyone, D14), emit refuses a payload that would write into it, and `snapshot` reads host
//! documents through it.

use std::sync::OnceLock;

use crate::vocabulary::target::Target;

/// agent-bundle's folder for wrappers, written once so that every path below it is built from it.
macro_rules! hooks_dir {
    () => {
        "hooks"
    };
}

/// The shared runtime's folder.
macro_rules! mcp_dir {
    () => {
        "mcp"
    };
}

/// The artifact's own manifest (every file with its hash, the hook index).
pub const MANIFEST_PATH: &str = "agent-bundle.manifest.json";
/// Wrappers (`hooks/<hook>.mjs`, `hooks/<hook>.<host>.mjs`), the runtime, bundles and shipped packages.
pub const HOOKS_DIR: &str = hooks_dir!();
/// The runtime every wrapper imports.
pub const RUNTIME_PATH: &str = concat!(hooks_dir!(), "/agent-bundle-runtime.mjs");
/// Where handler bundles go.
pub const HANDLERS_DIR: &str = concat!(hooks_dir!(), "/handlers");
/// Where packages shipped whole (`bundle.external`) go.
pub const SHIPPED_DIR: &str = concat!(hooks_dir!(), "/node_modules");
/// Keeps the shipped packages in a plugin published through git with an ordinary `.gitignore`.
pub const GITIGNORE_PATH: &str = concat!(hooks_dir!(), "/.gitignore");
/// The shared route runtime's MCP server (D12).
pub const MCP_DIR: &str = mcp_dir!();
/// The server's code; its entry is [`shared_runtime_entry`].
pub const SERVER_PATH: &str = concat!(mcp_dir!(), "/agent-bundle-server.mjs");
/// The names a README has at a bundle's root (and in the artifact), in the order they are preferred.
pub const README_NAMES: &[&str] = &["README.md"];
/// The names a license file has at a bundle's root (and in the artifact), in the order they are preferred.
pub const LICENSE_NAMES: &[&str] = &["LICENSE", "LICENSE.md", "LICENSE.txt", "COPYING"];

/// The wrapper a host runs for a hook, relative to the host's plugin folder: `hooks/<name>.mjs`, or
/// `hooks/<name>.<host>.mjs` when the hook has several hosts.
pub fn wrapper_file(hook_name: &str, host: Option<Target>) -> String {
    match host {
        Some(host) => format!("{HOOKS_DIR}/{hook_name}.{host}.mjs"),
        None => format!("{HOOKS_DIR}/{hook_name}.mjs"),
    }
}

/// The wrapper of a combined command ([`crate::pipeline::plan::combined`]): one per native event and
/// host, `hooks/agent-bundle-on-<native event>.<host>.mjs`, under the host's own folder when it has
/// one. Only the native event's letters, digits, `-` and `_` are kept.
pub fn combined_wrapper_path(native_event: &str, host: Target, folder: Option<&str>) -> String {
    let event: String = native_event.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
    let file = format!("{HOOKS_DIR}/agent-bundle-on-{event}.{host}.mjs");
    match folder {
        Some(folder) => format!("{folder}/{file}"),
        None => file,
    }
}

/// The shared runtime's MCP server's name in the hosts' documents: `<plugin>-runtime`.
pub fn shared_runtime_server(plugin: &str) -> String {
    format!("{plugin}-runtime")
}

/// The shared runtime's entry, which the hosts' MCP documents start: `mcp/<plugin>-runtime.mjs`.
pub fn shared_runtime_entry(plugin: &str) -> String {
    format!("{MCP_DIR}/{plugin}-runtime.mjs")
}

/// Who writes a path of the artifact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Owner {
    /// agent-bundle itself: the artifact manifest, wrappers, runtime, bundles, shipped packages and
    /// the plugin's README and license file.
    AgentBundle,
    /// The shared route runtime's MCP server.
    SharedRuntime,
    /// One host: its hook document, plugin manifest, icon, MCP document, or its own folder.
    Host(Target),
}

impl std::fmt::Display for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Owner::AgentBundle => f.write_str("agent-bundle"),
            Owner::SharedRuntime => f.write_str("the shared runtime"),
            Owner::Host(target) => f.write_str(&super::table(*target).host),
        }
    }
}

/// What a claimed path is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    ArtifactManifest,
    /// `hooks/`: wrappers, the runtime, handler bundles and shipped packages.
    Hooks,
    Readme,
    License,
    /// `mcp/`: the shared runtime's server and entry.
    SharedRuntime,
    HookDocument,
    PluginManifest,
    Icon,
    McpDocument,
    /// The module an in-process host loads (OpenCode's plugin), which runs the hooks there.
    EntryModule,
    /// A file a host runs for one native event from a hooks folder (Cline CLI's `PreToolUse.mjs`).
    HookFile,
    /// A host's own folder, holding its own copy of the plugin (wrappers, bundles, payloads).
    HostFolder,
}

impl Role {
    /// The role as a message names it, after the owner's name (`agent-bundle's artifact manifest`).
    pub fn described(self) -> &'static str {
        match self {
            Role::ArtifactManifest => "artifact manifest",
            Role::Hooks => "folder of wrappers, runtime, handler bundles and shipped packages",
            Role::Readme => "plugin README",
            Role::License => "plugin license file",
            Role::SharedRuntime => "MCP server folder",
            Role::HookDocument => "hook document",
            Role::PluginManifest => "plugin manifest",
            Role::Icon => "plugin icon",
            Role::McpDocument => "MCP server document",
            Role::EntryModule => "plugin module",
            Role::HookFile => "hook file",
            Role::HostFolder => "plugin folder",
        }
    }
}

/// One path of the layout: a file, or a folder whose whole content is its owner's (except what other
/// claims place inside it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Artifact-relative, `/`-separated, without a trailing slash.
    pub path: String,
    pub folder: bool,
    pub owner: Owner,
    pub role: Role,
}

impl Claim {
    /// The path as a message shows it: folders end in `/`.
    pub fn shown(&self) -> String {
        if self.folder { format!("{}/", self.path) } else { self.path.clone() }
    }

    /// Whether `path` (a folder something else would write into) overlaps this claim: it is the
    /// claimed path, holds it, or lies inside a claimed folder. A host's own folder is a container
    /// (payloads are copied into it), so only its own path and what holds it overlap it.
    fn overlaps(&self, path: &str) -> bool {
        let inside = |outer: &str, inner: &str| inner.strip_prefix(outer).is_some_and(|rest| rest.starts_with('/'));
        self.path == path
            || inside(path, &self.path)
            || (self.folder && self.role != Role::HostFolder && inside(&self.path, path))
    }
}

/// The paths one host's documents have, from its table.
#[derive(Clone, Copy, Debug)]
pub struct HostPaths<'t> {
    /// The host's own plugin folder, when it cannot share the root.
    pub folder: Option<&'t str>,
    pub document: &'t str,
    pub manifest: &'t str,
    pub icon: Option<&'t str>,
    /// Where the host declares the shared runtime's MCP server, when agent-bundle generates one for it.
    pub mcp_document: Option<&'t str>,
    /// Where the host reads the plugin's own MCP servers, when that is a file of its own (not the
    /// plugin manifest).
    pub plugin_mcp_document: Option<&'t str>,
    /// The module an in-process host loads, which agent-bundle writes.
    pub entry_module: Option<&'t str>,
    /// The files a host runs per native event from a hooks folder (Cline CLI's): each native
    /// event's file name without its extension ([`HostPaths::hook_files`] gives their paths).
    hook_file_names: &'t std::collections::BTreeMap<String, String>,
}

impl<'t> HostPaths<'t> {
    /// The files the host runs per native event, each with its native event: `<folder>/<name>.mjs`.
    pub fn hook_files(&self) -> impl Iterator<Item = (&'t str, String)> + use<'t> {
        let folder = self.folder.map(|f| format!("{f}/")).unwrap_or_default();
        self.hook_file_names.iter().map(move |(native, name)| (native.as_str(), format!("{folder}{name}.mjs")))
    }
}

/// Every path of the artifact a host, the shared runtime or agent-bundle writes.
#[derive(Debug)]
pub struct Layout {
    claims: Vec<Claim>,
}

/// The layout, derived from the embedded host tables once.
pub fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(Layout::derive)
}

impl Layout {
    fn derive() -> Layout {
        let mut claims = Vec::new();
        let mut claim = |path: &str, folder: bool, owner: Owner, role: Role| {
            claims.push(Claim { path: path.to_string(), folder, owner, role });
        };
        claim(MANIFEST_PATH, false, Owner::AgentBundle, Role::ArtifactManifest);
        claim(HOOKS_DIR, true, Owner::AgentBundle, Role::Hooks);
        for name in README_NAMES {
            claim(name, false, Owner::AgentBundle, Role::Readme);
        }
        for name in LICENSE_NAMES {
            claim(name, false, Owner::AgentBundle, Role::License);
        }
        claim(MCP_DIR, true, Owner::SharedRuntime, Role::SharedRuntime);
        // A form of another host's plugin (Claude Code's hooks module), or a host another host's plugin
        // serves (Kilo CLI, OpenCode's), has that plugin's paths.
        for table in super::tables().iter().filter(|t| t.form_of.is_none() && t.served_by.is_none()) {
            let Some(paths) = host_paths(table) else { continue };
            let owner = Owner::Host(table.target);
            if let Some(folder) = paths.folder {
                claim(folder, true, owner, Role::HostFolder);
                // The host's plugin is that folder: agent-bundle writes its own copy of `hooks/` there.
                claim(&format!("{folder}/{HOOKS_DIR}"), true, Owner::AgentBundle, Role::Hooks);
            }
            claim(paths.document, false, owner, Role::HookDocument);
            claim(paths.manifest, false, owner, Role::PluginManifest);
            if let Some(icon) = paths.icon {
                claim(icon, false, owner, Role::Icon);
            }
            let mut documents: Vec<&str> = paths.mcp_document.into_iter().chain(paths.plugin_mcp_document).collect();
            documents.dedup();
            for document in documents {
                claim(document, false, owner, Role::McpDocument);
            }
            if let Some(module) = paths.entry_module {
                claim(module, false, owner, Role::EntryModule);
            }
            for (_, file) in paths.hook_files() {
                claim(&file, false, owner, Role::HookFile);
            }
        }
        Layout { claims }
    }

    /// Every claimed path, agent-bundle's first, then the shared runtime's, then each host's.
    pub fn claims(&self) -> &[Claim] {
        &self.claims
    }

    /// The paths of `target`'s documents (`None` for a host without hooks).
    pub fn host(&self, target: Target) -> Option<HostPaths<'static>> {
        host_paths(super::table(target))
    }

    /// The hosts' own plugin folders, each with its host.
    pub fn host_folders(&self) -> impl Iterator<Item = (Target, &str)> {
        self.claims.iter().filter_map(|c| match (c.role, c.owner) {
            (Role::HostFolder, Owner::Host(target)) => Some((target, c.path.as_str())),
            _ => None,
        })
    }

    /// The claims that a folder written at `path` by anyone else (a payload) would collide with.
    pub fn claims_over(&self, path: &str) -> Vec<&Claim> {
        self.claims.iter().filter(|c| c.overlaps(path)).collect()
    }

    /// The claims a payload named `name` would collide with: it is copied to `<name>/` and into the
    /// folder of every host that has one, so a name is taken when it is taken in any of them. Only the
    /// outermost are named (`gemini/`, not also what Gemini CLI's folder holds).
    pub fn claims_on_name(&self, name: &str) -> Vec<&Claim> {
        let mut found = self.claims_over(name);
        for (_, folder) in self.host_folders() {
            for claim in self.claims_over(&format!("{folder}/{name}")) {
                if !found.contains(&claim) {
                    found.push(claim);
                }
            }
        }
        let holds = |outer: &Claim, inner: &Claim| outer.folder && inner.path.starts_with(&format!("{}/", outer.path));
        let outermost: Vec<&Claim> = found.iter().copied().filter(|c| !found.iter().any(|o| holds(o, c))).collect();
        outermost
    }

    /// The names a payload may not take: the first segment of every claimed path, at the root and
    /// inside each host's own folder, sorted.
    pub fn reserved_names(&self) -> Vec<String> {
        let first = |path: &str| path.split('/').next().unwrap_or(path).to_string();
        let mut names: Vec<String> = self.claims.iter().map(|c| first(&c.path)).collect();
        for (_, folder) in self.host_folders() {
            let prefix = format!("{folder}/");
            names.extend(self.claims.iter().filter_map(|c| c.path.strip_prefix(&prefix)).map(first));
        }
        names.sort();
        names.dedup();
        names
    }

    /// What `path` is for `target`, when it is one of that host's documents.
    pub fn document_role(&self, target: Target, path: &str) -> Option<Role> {
        self.claims.iter().find(|c| c.owner == Owner::Host(target) && c.path == path && !c.folder).map(|c| c.role)
    }
}

/// A table's document paths, when the host has hooks.
fn host_paths(table: &super::HostTable) -> Option<HostPaths<'_>> {
    let surface = table.hooks.as_ref()?;
    Some(HostPaths {
        folder: surface.folder.as_deref(),
        document: &surface.document,
        manifest: &surface.manifest,
        icon: surface.icon.as_deref(),
        mcp_document: surface.mcp_server.supported().ok().map(|d| d.document.as_str()),
        plugin_mcp_document: surface
            .plugin_mcp
            .supported()
            .ok()
            .map(|p| p.document.as_str())
            .filter(|document| *document != surface.manifest.as_str()),
        entry_module: surface.entry_module.as_deref(),
        hook_file_names: &surface.hook_files,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_has_one_owner_and_no_file_holds_another_path() {
        let claims = layout().claims();
        for (index, a) in claims.iter().enumerate() {
            assert!(!a.path.is_empty() && !a.path.starts_with('/') && !a.path.ends_with('/'), "{a:?}");
            for b in &claims[index + 1..] {
                assert_ne!(a.path, b.path, "two claims of one path: {a:?} and {b:?}");
                let under = |outer: &Claim, inner: &Claim| inner.path.starts_with(&format!("{}/", outer.path));
                // Only a folder holds another path.
                assert!(a.folder || !under(a, b), "{a:?} holds {b:?}");
                assert!(b.folder || !under(b, a), "{b:?} holds {a:?}");
            }
        }
    }

    #[test]
    fn a_form_of_another_plugin_has_its_paths() {
        for table in crate::hosts::tables() {
            let Some(base) = table.form_of else { continue };
            let (form, base) = (layout().host(table.target).unwrap(), layout().host(base).unwrap());
            assert_eq!(
                [form.folder, Some(form.document), Some(form.manifest), form.icon, form.mcp_document],
                [base.folder, Some(base.document), Some(base.manifest), base.icon, base.mcp_document],
                "{}",
                table.target
            );
        }
    }

    #[test]
    fn every_host_document_lies_in_its_own_folder_when_it_has_one() {
        for (target, folder) in layout().host_folders() {
            let paths = layout().host(target).unwrap();
            for path in [
                Some(paths.document),
                Some(paths.manifest),
                paths.icon,
                paths.mcp_document,
                paths.plugin_mcp_document,
                paths.entry_module,
            ]
            .into_iter()
            .flatten()
            {
                assert!(path.starts_with(&format!("{folder}/")), "{target}: {path} is outside {folder}/");
            }
        }
    }

    #[test]
    fn the_names_the_hosts_and_agent_bundle_write_are_reserved() {
        let names = layout().reserved_names();
        for name in [
            "hooks",
            "mcp",
            ".mcp.json",
            ".claude-plugin",
            ".codex-plugin",
            ".plugin",
            ".cursor-plugin",
            "gemini",
            "gemini-extension.json",
            MANIFEST_PATH,
            "README.md",
            "LICENSE",
        ] {
            assert!(names.iter().any(|n| n == name), "{name} is not reserved: {names:?}");
        }
        let owners = |name: &str| layout().claims_on_name(name).iter().map(|c| c.owner).collect::<Vec<_>>();
        assert_eq!(owners("gemini"), [Owner::Host(Target::Gemini)]);
        assert_eq!(
            owners("hooks"),
            [Owner::AgentBundle; 8],
            "`hooks/`, `amp/hooks/`, `cline/hooks/`, `droid/hooks/`, `gemini/hooks/`, `opencode/hooks/`, `pi/hooks/` and `qwen/hooks/`"
        );
        assert_eq!(owners("cline"), [Owner::Host(Target::Cline)]);
        assert_eq!(owners("PreToolUse.mjs"), [Owner::Host(Target::Cline)], "Cline CLI's hook file, in its folder");
        assert!(owners("claude-mod").is_empty(), "Claude Code's hooks module is in Claude Code's plugin");
        assert_eq!(owners("droid"), [Owner::Host(Target::Droid)]);
        assert_eq!(owners("opencode"), [Owner::Host(Target::Opencode)]);
        assert_eq!(
            owners("plugin.mjs"),
            [Owner::Host(Target::Cline), Owner::Host(Target::Opencode)],
            "Cline CLI's and OpenCode's modules, each in its folder"
        );
        assert_eq!(owners("pi"), [Owner::Host(Target::Pi)]);
        assert_eq!(owners("extension.mjs"), [Owner::Host(Target::Pi)], "Pi's extension, in its folder");
        assert_eq!(owners("qwen"), [Owner::Host(Target::Qwen)]);
        assert_eq!(owners("qwen-extension.json"), [Owner::Host(Target::Qwen)]);
        assert_eq!(owners("gemini-extension.json"), [Owner::Host(Target::Gemini)]);
        assert_eq!(
            owners(".plugin"),
            [Owner::Host(Target::Copilot); 3],
            "Copilot CLI's hook document, manifest and MCP document"
        );
        assert_eq!(owners("mcp.json"), [Owner::Host(Target::Droid)], "Factory Droid's MCP document, in its folder");
        assert!(layout().claims_over("hooks").iter().any(|c| c.owner == Owner::Host(Target::Claude)));
        assert!(layout().claims_on_name("scripts").is_empty());
    }

    #[test]
    fn a_folder_inside_a_host_folder_is_free_unless_something_claims_it() {
        assert!(layout().claims_over("gemini/scripts").is_empty(), "payload copies go there");
        assert!(!layout().claims_over("gemini/hooks").is_empty());
        assert!(!layout().claims_over("hooks/handlers").is_empty(), "inside agent-bundle's folder");
    }
}
