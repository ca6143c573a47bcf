//! TypeScript declarations for the modules a bundle imports from agent-bundle (`agent-bundle/config`,
//! `agent-bundle`, `@agent-bundle/runtime` and its JSX entry), generated from the tables the compiler
//! itself uses: the events, selectors and hosts, each event's payload as the host tables decode it,
//! the page's rules of what a result may hold, the route families with their payload fields and
//! capability rows. So the types cannot drift from what the wrappers accept.
//!
//! A bundle gets them without an npm package: `cargo agent-bundle types` writes them under
//! `.agent-bundle/types/` in the bundle, and the bundle's tsconfig maps the module names there by
//! `paths` ([`TSCONFIG_PATHS`]); `npm install` never touches that folder. Beside them it writes the
//! test kit ([`testing`]), which the bundle's package.json maps by `imports`. `build` warns when a bundle
//! imports these modules and its tsconfig cannot see them (`pipeline::types`).

mod payload;
pub mod testing;

use std::collections::BTreeMap;
use std::fmt::Write as _;

pub use crate::pipeline::types::{TSCONFIG_PATHS, TYPES_DIR, header};

use crate::hosts;
use crate::vocabulary::canonical::{CanonicalEvent, ResultPart, Selector};
use crate::vocabulary::family::FAMILIES;
use crate::vocabulary::target::Target;

/// Every declaration file, by path under [`TYPES_DIR`].
pub fn declarations() -> BTreeMap<&'static str, String> {
    BTreeMap::from([
        ("agent-bundle/config.d.ts", config_module()),
        ("agent-bundle/index.d.ts", main_module()),
        ("@agent-bundle/runtime/index.d.ts", runtime_module()),
        ("@agent-bundle/runtime/jsx-runtime.d.ts", jsx_runtime_module()),
    ])
}

/// The test kit's files (`#agent-bundle/testing`, [`testing`]), by path under [`TYPES_DIR`]: its
/// module, its declarations and the module a route's JSX runs with in a test.
pub fn kit_files() -> BTreeMap<&'static str, String> {
    BTreeMap::from([
        (testing::KIT_MODULE, testing::kit_module()),
        (testing::KIT_DECLARATIONS, testing::kit_declarations()),
        (testing::JSX_RUNTIME_MODULE, testing::jsx_runtime_module()),
    ])
}

/// The `paths` a bundle's tsconfig needs, as the JSON object to put under `compilerOptions.paths`.
pub fn tsconfig_paths() -> serde_json::Value {
    let paths: serde_json::Map<String, serde_json::Value> = TSCONFIG_PATHS
        .iter()
        .map(|(module, file)| ((*module).to_string(), serde_json::json!([format!("./{TYPES_DIR}/{file}")])))
        .collect();
    serde_json::Value::Object(paths)
}

/// The tsconfig.json a new bundle gets: strict TypeScript for Node, JSX compiled against
/// `@agent-bundle/runtime`, and the declarations mapped by `paths`.
pub fn tsconfig_template() -> serde_json::Value {
    serde_json::json!({
        "compilerOptions": {
            "target": "ES2022",
            "module": "ESNext",
            "moduleResolution": "Bundler",
            "strict": true,
            "noEmit": true,
            "skipLibCheck": true,
            "jsx": "react-jsx",
            "jsxImportSource": "@agent-bundle/runtime",
            "paths": tsconfig_paths(),
        },
        "include": ["agent-bundle.config.ts", "src"],
    })
}

/// What `cargo agent-bundle types` did.
#[derive(Debug, Default)]
pub struct Written {
    /// Root-relative paths written, in order.
    pub written: Vec<String>,
    /// Root-relative paths already up to date.
    pub unchanged: Vec<String>,
    /// What the bundle itself should change, which `types` leaves to its author (package.json).
    pub notes: Vec<String>,
}

/// Writes the declarations under `<root>/.agent-bundle/types/` (only files whose bytes change) and
/// makes `<root>/tsconfig.json` map them: a new one when there is none, the missing keys merged into
/// one without comments. A tsconfig with comments is left alone (rewriting it would lose them): the
/// error says which keys to add. With `check`, nothing is written and any change is an error.
pub fn write_types(root: &camino::Utf8Path, check: bool) -> Result<Written, String> {
    let mut report = Written::default();
    let mut changes: Vec<(camino::Utf8PathBuf, String, String)> = Vec::new();
    for (file, text) in declarations().into_iter().chain(kit_files()) {
        let relative = format!("{TYPES_DIR}/{file}");
        changes.push((root.join(&relative), relative, text));
    }
    let tsconfig_path = root.join("tsconfig.json");
    let tsconfig = match std::fs::read_to_string(&tsconfig_path) {
        Err(_) => Some(
            crate::vocabulary::json::pretty(&tsconfig_template())
                + "
",
        ),
        Ok(text) => merged_tsconfig(&text)?,
    };
    if let Some(text) = tsconfig {
        changes.push((tsconfig_path, "tsconfig.json".to_string(), text));
    }
    for (path, relative, text) in changes {
        if std::fs::read_to_string(&path).is_ok_and(|old| old == text) {
            report.unchanged.push(relative);
            continue;
        }
        if check {
            return Err(format!("`{relative}` is not up to date: run `cargo agent-bundle types`"));
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create `{parent}`: {e}"))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("cannot write `{path}`: {e}"))?;
        report.written.push(relative);
    }
    report.notes.extend(kit_import_note(root));
    Ok(report)
}

/// What to add to the bundle's package.json for its tests to import the test kit, when it does not
/// map `#agent-bundle/testing` so already. package.json is the author's (its key order, its
/// formatting): `types` never rewrites it.
fn kit_import_note(root: &camino::Utf8Path) -> Option<String> {
    let text = std::fs::read_to_string(root.join("package.json")).ok()?;
    let package: serde_json::Value = serde_json::from_str(&text).ok()?;
    let wanted = testing::package_imports();
    let (name, entry) = wanted.as_object().and_then(|o| o.iter().next()).expect("one entry");
    if package["imports"].get(name) == Some(entry) {
        return None;
    }
    Some(format!(
        "package.json does not map `{name}` to the test kit: add `\"imports\": {}` to import it in tests",
        crate::vocabulary::json::compact(&wanted)
    ))
}

/// The tsconfig with the keys the declarations need, or `None` when it has them all already.
fn merged_tsconfig(text: &str) -> Result<Option<String>, String> {
    let stripped = crate::vocabulary::json::strip_jsonc(text);
    let mut value: serde_json::Value = serde_json::from_str(&stripped).map_err(|e| {
        format!("tsconfig.json does not parse ({e}); fix it, then run `cargo agent-bundle types` again")
    })?;
    let wanted = tsconfig_paths();
    let options = &value["compilerOptions"];
    let has_all =
        wanted.as_object().expect("paths are an object").iter().all(|(k, v)| options["paths"].get(k) == Some(v))
            && options["jsxImportSource"] == "@agent-bundle/runtime";
    if has_all {
        return Ok(None);
    }
    if serde_json::from_str::<serde_json::Value>(text).is_err() {
        return Err(format!(
            "tsconfig.json has comments, so agent-bundle leaves it to you: add to `compilerOptions` \
             `\"jsx\": \"react-jsx\"`, `\"jsxImportSource\": \"@agent-bundle/runtime\"` and `\"paths\": {}`",
            crate::vocabulary::json::compact(&wanted)
        ));
    }
    let options = value
        .as_object_mut()
        .ok_or("tsconfig.json is not an object")?
        .entry("compilerOptions")
        .or_insert_with(|| serde_json::json!({}));
    let options = options.as_object_mut().ok_or("tsconfig.json's compilerOptions is not an object")?;
    options.entry("jsx").or_insert_with(|| serde_json::json!("react-jsx"));
    options.insert("jsxImportSource".into(), serde_json::json!("@agent-bundle/runtime"));
    let paths = options.entry("paths").or_insert_with(|| serde_json::json!({}));
    let paths = paths.as_object_mut().ok_or("tsconfig.json's compilerOptions.paths is not an object")?;
    for (module, files) in wanted.as_object().expect("paths are an object") {
        paths.insert(module.clone(), files.clone());
    }
    Ok(Some(
        crate::vocabulary::json::pretty(&value)
            + "
",
    ))
}

fn quoted(items: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let items: Vec<String> = items.into_iter().map(|i| format!("'{}'", i.as_ref())).collect();
    if items.is_empty() { "never".to_string() } else { items.join(" | ") }
}

fn hook_targets() -> Vec<Target> {
    Target::ALL.into_iter().filter(|t| hosts::table(*t).has_hooks()).collect()
}

/// `agent-bundle/config`: `defineConfig` and the config's types.
fn config_module() -> String {
    let mut out = header();
    let targets = quoted(Target::ALL.iter().map(|t| t.name()));
    let with_hooks = quoted(hook_targets().iter().map(|t| t.name()));
    let events = quoted(CanonicalEvent::ALL.iter().map(|e| e.name()));
    let selectors = quoted(Selector::ALL.iter().map(|s| s.name()));
    let native = hook_targets().iter().map(|t| format!("`{}:${{string}}`", t.name())).collect::<Vec<_>>().join(" | ");
    let sources = quoted(hosts::session_sources());
    let tool_events = quoted(CanonicalEvent::ALL.iter().filter(|e| e.accepts_tools()).map(|e| e.name()));
    let _ = write!(
        out,
        r#"
/** A host agent-bundle builds for (`portable` has no hooks). */
export type Target = {targets};
/** A host that runs hooks. */
export type HookTarget = {with_hooks};
/** The seven config events. Other events are reached by event routes under `src/events/`. */
export type CanonicalEvent = {events};
/** A canonical tool selector; each host's table maps it to its own tool names. */
export type Selector = {selectors};
/** `<host>:<native tool name>`, case-sensitive; `*` or `.*` stands for any run of characters (`claude:mcp__github__*`). */
export type NativeSelector = {native};
/** `mcp:<server>` (every tool of one of the plugin's own `mcpServers`) or `mcp:<server>/<tool>`: each host's own name for it. */
export type McpToolSelector = `mcp:${{string}}`;
export type ToolSelector = Selector | NativeSelector | McpToolSelector;
/** A session source some host sends on sessionStart. */
export type SessionSource = {sources};
/** The events whose hooks may filter by `tools`. */
export type ToolEvent = {tool_events};

/** One hook of a config event. */
export interface HookEntry<E extends CanonicalEvent = CanonicalEvent> {{
  /** A module path relative to the bundle root, or a prebuilt file inside a payload. */
  handler: string | {{ prebuilt: string }};
  /** Hosts for this hook; among the config's `targets`. */
  targets?: HookTarget[];
  /** Whole seconds; omitted means the host's default. */
  timeout?: number;
  /** beforeTool and afterTool only. */
  tools?: E extends ToolEvent ? ToolSelector[] : never;
  /** What the hook does on a host that lacks one of its selectors: fail the build (`'error'`, the default), leave that host out (`'skip-host'`), or give it the selectors it has (`'skip-selector'`). */
  onMissingSelector?: E extends ToolEvent ? 'error' | 'skip-host' | 'skip-selector' : never;
  /** sessionStart only: the session sources the hook runs for. */
  sources?: E extends 'sessionStart' ? SessionSource[] : never;
  /** beforeTool only: any failure of the hook blocks the tool. */
  failClosed?: E extends 'beforeTool' ? boolean : never;
  /** The wrapper's stdin limit in bytes (default 64 MiB); a larger envelope is a failure of the hook. */
  maxInputBytes?: number;
  /** Extra command arguments, prebuilt handlers only. */
  args?: string[];
  /** The host goes on without waiting for the hook (the wrapper answers at once and runs the handler detached; OpenCode starts it without awaiting it); events whose hook cannot deny only. */
  async?: E extends 'sessionStart' | 'afterTool' | 'agentStart' | 'workspaceOpen' ? boolean : never;
  /** A line hosts that show one (Claude Code, Codex) display while the hook runs; 1 to 200 characters. */
  statusMessage?: string;
}}

export type HookDeclaration<E extends CanonicalEvent = CanonicalEvent> = string | HookEntry<E>;

export type Hooks = {{ [E in CanonicalEvent]?: HookDeclaration<E> | HookDeclaration<E>[] }};

export interface Author {{
  name: string;
  email?: string;
  url?: string;
}}

export interface PluginConfig {{
  /** kebab-case; default: the bundle folder's name. */
  name?: string;
  description?: string;
  version?: string;
  /** `'Name <email> (url)'` or an object. */
  author?: string | Author;
  /** An SPDX id. */
  license?: string;
  /** A square PNG inside the bundle. */
  icon?: string;
  /** The plugin's home page, for the manifests that carry one (Claude Code, Copilot CLI, Cursor, OpenCode). */
  homepage?: string;
  /** The plugin's source repository URL, for the same manifests. */
  repository?: string;
  /** Search keywords, for the manifests that carry them (and Codex's). */
  keywords?: string[];
  /** Codex's plugin-browser card, written into Codex's manifest only. */
  interface?: PluginInterface;
}}

export interface PluginInterface {{
  displayName?: string;
  shortDescription?: string;
  longDescription?: string;
  developerName?: string;
  category?: string;
  capabilities?: string[];
  websiteUrl?: string;
  privacyPolicyUrl?: string;
  termsOfServiceUrl?: string;
  /** At most three are kept, each up to 128 characters. */
  defaultPrompt?: string | string[];
  brandColor?: string;
}}

/** A folder (or for `contextFile` a Markdown file) inside the bundle, and the hosts it is placed for. */
export type PartDeclaration = string | {{ source: string; targets?: HookTarget[] }};

export type PayloadDeclaration =
  | string
  | {{
      source: string;
      targets?: Target[];
      /** Ship a symlink that leads outside the bundle root and its node_modules as a link (default: an error). */
      keepOutsideLinks?: boolean;
    }};

export interface BundleConfig {{
  /** npm packages shipped whole instead of bundled. */
  external?: string[];
  /** Ship a symlink in those packages that leads outside the bundle root and its node_modules as a link (default: an error). */
  keepOutsideLinks?: boolean;
  /** `false`: every hook its own command. By default the hooks a host would start for one call share one process, each judged by its own matcher, deadline and failure policy. */
  combineCommands?: boolean;
  /** `true`: the hooks that may fail open (not `failClosed`, not `async`, on tool events) are answered by the plugin's own MCP server, kept warm, where the host calls it from a hook entry (Claude Code's `mcp_tool`): no process per call. A server that is not connected skips them, with the host's warning. */
  warmServer?: boolean;
  /** Names replaced at bundling by the code given (`{{ __VERSION__: '"1.2.0"' }}`), as esbuild's and tsup's `define`. */
  define?: Record<string, string>;
}}

/** `${{pluginRoot}}` in `command`, `args`, `env` and `cwd` is each host's own root of the installed plugin. */
export type McpServer =
  | {{
      /** A program the host starts, speaking MCP on stdio. */
      command: string;
      args?: string[];
      env?: Record<string, string>;
      cwd?: string;
      type?: 'stdio';
      targets?: HookTarget[];
    }}
  | {{
      /** A module of the bundle (relative to its root), bundled like a handler and started with node. */
      module: string;
      args?: string[];
      env?: Record<string, string>;
      type?: 'stdio';
      targets?: HookTarget[];
    }}
  | {{
      /** A remote server. */
      type?: 'http' | 'sse';
      url: string;
      headers?: Record<string, string>;
      targets?: HookTarget[];
    }};

export interface AgentBundleConfig {{
  hooks?: Hooks;
  /** The plugin's own MCP servers, by name, written where each host reads them. */
  mcpServers?: Record<string, McpServer>;
  /** A folder of skills, `<name>/SKILL.md` with `name` and `description` in its front matter. */
  skills?: PartDeclaration;
  /** A folder of commands, `<name>.md`: the prompt `/name` sends (`$ARGUMENTS` for what follows it). */
  commands?: PartDeclaration;
  /** A folder of agents, `<name>.md`: the agent's instructions, `name` and `description` in its front matter. */
  agents?: PartDeclaration;
  /** A Markdown file the hosts that read one (Gemini CLI, Qwen Code) add to every session's context. */
  contextFile?: PartDeclaration;
  plugin?: PluginConfig;
  /** Default: `['claude', 'codex']`. */
  targets?: Target[];
  payload?: Record<string, PayloadDeclaration>;
  bundle?: BundleConfig;
}}

/** Returns the config as it is: agent-bundle reads it without running it. */
export declare function defineConfig(config: AgentBundleConfig): AgentBundleConfig;
"#
    );
    out
}

/// The TypeScript type of a result for `event`: a union of one object type per legal outcome, each
/// with exactly the keys the page allows on that event (the others typed `never`, so writing them
/// is an error).
fn result_type(event: CanonicalEvent) -> String {
    let allowed = |part: ResultPart| event.refuses(part).is_none();
    let context =
        if allowed(ResultPart::AdditionalContext) { "additionalContext?: string" } else { "additionalContext?: never" };
    // The answers beyond the canonical parts (the matrix's *Extra answers* says which host takes which).
    let extras: Vec<String> = crate::vocabulary::canonical::Extra::ALL
        .iter()
        .filter(|extra| extra.refuses(event).is_none())
        .map(|extra| match extra {
            crate::vocabulary::canonical::Extra::SystemMessage => "systemMessage?: string".to_string(),
            crate::vocabulary::canonical::Extra::Env => "env?: Record<string, string>".to_string(),
        })
        .collect();
    let context = format!("{context}; extra?: {{ {} }}", extras.join("; "));
    let context = context.as_str();
    let mut variants = Vec::new();
    let rewrite = |with: bool| {
        if with && allowed(ResultPart::UpdatedInput) {
            "updatedInput?: Record<string, unknown>"
        } else {
            "updatedInput?: never"
        }
    };
    variants.push(format!("{{ outcome?: 'continue'; reason?: never; {context}; {} }}", rewrite(true)));
    if allowed(ResultPart::Deny) {
        variants.push(format!("{{ outcome: 'deny'; reason: string; {context}; {} }}", rewrite(false)));
    }
    for (part, word) in [(ResultPart::Allow, "allow"), (ResultPart::Ask, "ask")] {
        if allowed(part) {
            variants.push(format!("{{ outcome: '{word}'; reason?: never; {context}; {} }}", rewrite(true)));
        }
    }
    variants.join("\n  | ")
}

/// `agent-bundle`: handler and route types.
fn main_module() -> String {
    let mut out = header();
    out.push_str(
        "\nimport type { CanonicalEvent, HookTarget, ToolSelector } from './config';\n\
         export type * from './config';\n\n",
    );
    out.push_str(&tool_types());
    out.push_str(
        "/** What a config handler receives, per event: the payload the wrappers decode from the host's envelope. */\n",
    );
    out.push_str("export interface HookPayloads {\n");
    for event in CanonicalEvent::ALL {
        let _ = writeln!(out, "  {}: {{", event.name());
        for (field, ty, required) in payload::config_fields(event) {
            let optional = if required { "" } else { "?" };
            if let Some((_, canonical)) =
                crate::vocabulary::canonical::PAYLOAD_ALIASES.iter().find(|(old, _)| *old == field)
            {
                let _ = writeln!(
                    out,
                    "    /** @deprecated The old name of `{canonical}` (the same value); it goes in the next release. */"
                );
            }
            let _ = writeln!(out, "    readonly {field}{optional}: {ty};");
        }
        out.push_str("  };\n");
    }
    out.push_str("}\n\n");
    out.push_str("/** What a handler may return on each event; an illegal result (a deny on sessionStart, a reason without a deny, updatedInput with a deny) is a type error. */\n");
    out.push_str("export interface HookResults {\n");
    for event in CanonicalEvent::ALL {
        let _ = writeln!(out, "  {}:\n  | {};", event.name(), result_type(event));
    }
    out.push_str("}\n\n");
    out.push_str(
        "export type HookPayload<E extends CanonicalEvent> = HookPayloads[E];\n\
         export type HookResult<E extends CanonicalEvent> = HookResults[E];\n\n\
         export interface HookContext {\n\
         \x20 /** The host running the hook. */\n\
         \x20 readonly target: HookTarget;\n\
         \x20 /** The host's own event name. */\n\
         \x20 readonly nativeEvent: string;\n\
         \x20 /** The host's envelope as received (deep-frozen). */\n\
         \x20 readonly nativeInput: Readonly<Record<string, unknown>>;\n\
         \x20 /** The plugin folder this host runs the hook from, where the bundle's payloads lie (undefined in Claude Code's hooks module, which has no file system). */\n\
         \x20 readonly pluginRoot: string | undefined;\n\
         \x20 /** The session's project folder: the host's variable for it, else the envelope's folder. */\n\
         \x20 readonly projectDir: string | undefined;\n\
         \x20 /** The plugin's persistent per-user folder (the host's own where it has one), created when first read. */\n\
         \x20 readonly dataDir: string;\n\
         \x20 /** The host's name for tool `tool` of the plugin's own MCP server `server` (an `mcpServers` name), or undefined where the server is not placed. */\n\
         \x20 mcpToolName(server: string, tool: string): string | undefined;\n\
         }\n\n\
         /** A config handler: `export default (async (event) => { … }) satisfies HookHandler<'beforeTool'>;` */\n\
         export type HookHandler<E extends CanonicalEvent> = (\n\
         \x20 event: HookPayload<E>,\n\
         \x20 context: HookContext,\n\
         ) => HookResult<E> | void | Promise<HookResult<E> | void>;\n\n",
    );

    let families = quoted(FAMILIES.iter().map(|f| f.name));
    let camel = quoted(FAMILIES.iter().map(|f| f.camel()));
    let parts = quoted(ResultPart::ALL.iter().map(|p| p.short()));
    let _ = write!(
        out,
        r#"/** An event-route family: a module `src/events/<family>.tsx`. */
export type Family = {families};
/** A capability row a route may require: `events.<family in camelCase>.<part>`. */
export type Capability = `events.${{{camel}}}.${{{parts}}}`;

/** A route's `export const config`. */
export interface AgentEventRouteConfig {{
  /** `'standalone'` (default): the route renders in its own wrapper process. */
  runtime?: 'standalone' | 'shared';
  fallback?: 'none' | 'standalone';
  /** Hosts for the route; not together with `requires`. */
  targets?: HookTarget[];
  /** The route goes to every selected host that has all of these. */
  requires?: Capability[];
  /** The route's budget in milliseconds: its `signal` aborts then. */
  timeoutMs?: number;
  /** The host's timeout for the route's entry, in whole seconds (as a config hook's `timeout`); the route's wrapper answers within it. Default: the host's own. */
  timeout?: number;
  /** Tool families only. */
  tools?: ToolSelector[];
  /** On a host that lacks one of `tools`: fail the build (`'error'`, the default), leave the host out (`'skip-host'`), or give it the selectors it has (`'skip-selector'`). */
  onMissingSelector?: 'error' | 'skip-host' | 'skip-selector';
  /** Families that can deny only: any failure of the route blocks, as a fail-closed config hook's does. */
  failClosed?: boolean;
  /** The wrapper's stdin limit in bytes (default 64 MiB); a larger envelope is a failure of the route. */
  maxInputBytes?: number;
}}

/** A payload field as the host sent it: absent when the host did not. */
export interface PayloadField<T> {{
  readonly value: T;
  /** The host's own key it was read from. */
  readonly nativeKey: string;
}}

/** Each family's payload fields. */
export interface FamilyPayloads {{
"#
    );
    for family in FAMILIES {
        let _ = writeln!(out, "  '{}': {{", family.name);
        for (field, ty) in payload::route_fields(family) {
            let _ = writeln!(out, "    readonly {field}?: PayloadField<{ty}>;");
        }
        out.push_str("  };\n");
    }
    out.push_str(
        r#"}

export interface Provenance {
  readonly host: HookTarget;
  readonly hostContractRevision: string;
  readonly nativeEvent: string;
  readonly source: 'native';
}

export interface Canonical<F extends Family = Family> {
  readonly event: F;
  /** SHA-256 over the family, the envelope and the host: the same delivery, the same key. */
  readonly idempotencyKey: string;
  readonly observedAt: string;
  /** Counts renders in this process, from 1. */
  readonly sequence: number;
  readonly provenance: Provenance;
  readonly payload: FamilyPayloads[F];
}

/** A route component's props. */
export interface AgentEventRouteProps<F extends Family = Family> {
  readonly canonical: Canonical<F>;
  /** The host's envelope as validated (deep-frozen). */
  readonly native: Readonly<Record<string, unknown>>;
  /** Aborts at `timeoutMs`, else at the wrapper's deadline. */
  readonly signal: AbortSignal;
  /** The plugin folder this host runs the route from, where the bundle's payloads lie. */
  readonly pluginRoot: string | undefined;
  /** The session's project folder: the host's variable for it, else the envelope's folder. */
  readonly projectDir: string | undefined;
  /** The plugin's persistent per-user folder (the host's own where it has one), created when first read. */
  readonly dataDir: string;
}
"#,
    );
    out
}

/// The names of a config event's payload fields, in the types' order (the matrix lists them).
pub fn config_field_names(event: CanonicalEvent) -> Vec<String> {
    payload::config_fields(event).into_iter().map(|(name, _, _)| name).collect()
}

/// The canonical tool of a tool event, a union on `kind`: the selectors' names and `other`.
fn tool_types() -> String {
    let kinds = quoted(Selector::ALL.iter().map(|s| s.name()).chain(["other"]));
    format!(
        r#"/** What kind of tool a call is, decided by the host tables (the data the `tools` matchers come from). */
export type ToolKind = {kinds};

interface ToolCallBase {{
  /** The host's own name of the tool (`Bash`, `run_shell_command`, `mcp__github__create_issue`). */
  readonly name: string;
  /** For each canonical field, the native key it was read from (`tool_input.file_path`). */
  readonly nativeKeys: Readonly<Record<string, string>>;
}}

export interface ShellToolCall extends ToolCallBase {{
  readonly kind: 'shell';
  /** The command line. */
  readonly command: string;
  /** The folder it runs in, where the host's shell tool takes one. */
  readonly cwd?: string;
}}

/** One replacement of text in a file (for a patch, one hunk: its context and removed lines, then its context and added lines). */
export interface FileEdit {{
  readonly filePath?: string;
  readonly oldText: string;
  readonly newText: string;
}}

export interface FileReadToolCall extends ToolCallBase {{
  readonly kind: 'file.read';
  /** The file (or, for a search tool, the folder) read: `filePaths[0]`. */
  readonly filePath?: string;
  /** Every path the call reads (empty for a search tool given no path). */
  readonly filePaths: readonly string[];
}}

export interface FileWriteToolCall extends ToolCallBase {{
  readonly kind: 'file.write';
  /** The first file written: `filePaths[0]`. A patch may write several: judge `filePaths`. */
  readonly filePath?: string;
  /** Every file the call writes, moves or deletes (a patch's, as it names them). */
  readonly filePaths: readonly string[];
  /** The whole new content, for a tool that writes a file whole. */
  readonly content?: string;
  /** The replacements, for an edit or a patch. */
  readonly edits?: readonly FileEdit[];
  /** The patch text, for a patch tool (Codex's `apply_patch`). */
  readonly patch?: string;
}}

export interface McpToolCall extends ToolCallBase {{
  readonly kind: 'mcp';
  /** The MCP server's name, where the host's tool name or envelope tells it. */
  readonly server?: string;
  /** The server's own name of the tool. */
  readonly tool?: string;
  /** The plugin's own MCP server (its `mcpServers` name) the tool belongs to, on every host. */
  readonly ownServer?: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}}

export interface AgentToolCall extends ToolCallBase {{
  readonly kind: 'agent';
}}

export interface OtherToolCall extends ToolCallBase {{
  readonly kind: 'other';
}}

/** The tool of a beforeTool/afterTool call or a tool route, the same on every host. */
export type ToolCall =
  | ShellToolCall
  | FileReadToolCall
  | FileWriteToolCall
  | McpToolCall
  | AgentToolCall
  | OtherToolCall;

"#
    )
}

/// `@agent-bundle/runtime`: the elements a route renders.
fn runtime_module() -> String {
    let mut out = header();
    out.push_str(
        r#"
import type { AgentElement, ElementNode } from './jsx-runtime';
export type { AgentElement, AgentNode, ElementNode } from './jsx-runtime';

/**
 * What `<Agent.Result value>` carries: a denial with its reason, or another outcome; context goes
 * in `<Agent.Context>`. Which outcomes a family and host take is checked when the route renders.
 */
export type ResultValue = (
  | { outcome: 'deny'; reason: string; updatedInput?: never }
  | {
      outcome?: 'continue' | 'allow' | 'ask';
      reason?: never;
      /** tool/before only. */
      updatedInput?: Record<string, unknown>;
    }
) & {
  /** Answers beyond the canonical parts where the host takes them (the matrix's *Extra answers*): a line for the user; session/start's variables for the session. */
  extra?: { systemMessage?: string; env?: Record<string, string> };
};

/** The elements an event route answers with. */
export declare const Agent: {
  /** The route's decision; at most one per render. */
  Result(props: { value?: ResultValue; children?: ElementNode }): AgentElement;
  /** Text for the host's context channel; every Context's text is joined. */
  Context(props: { children?: string | number | (string | number)[] }): AgentElement;
};
"#,
    );
    out
}

/// `@agent-bundle/runtime/jsx-runtime`: what TypeScript's `jsx: "react-jsx"` needs, with no
/// intrinsic elements (a `<div>` reaches no host, so it is a type error).
fn jsx_runtime_module() -> String {
    let mut out = header();
    out.push_str(
        r#"
declare const element: unique symbol;
export interface AgentElement {
  readonly [element]: true;
}
/** What a component may render: elements, text (inside `<Agent.Context>`), nothing. */
export type AgentNode = AgentElement | string | number | boolean | null | undefined | AgentNode[];
/** Elements only: what `<Agent.Result>` may hold (text outside `<Agent.Context>` reaches no host). */
export type ElementNode = AgentElement | boolean | null | undefined | ElementNode[];

export declare namespace JSX {
  type Element = AgentElement;
  type ElementType = (props: any) => AgentNode | Promise<AgentNode>;
  interface IntrinsicElements {}
  interface ElementChildrenAttribute {
    children: {};
  }
}

export declare const Fragment: (props: { children?: AgentNode }) => AgentElement;
export declare function jsx(type: unknown, props: unknown, key?: unknown): AgentElement;
export declare function jsxs(type: unknown, props: unknown, key?: unknown): AgentElement;
"#,
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_follow_the_pages_rules() {
        let session = result_type(CanonicalEvent::SessionStart);
        assert!(!session.contains("'deny'"), "sessionStart cannot deny: {session}");
        assert!(session.contains("additionalContext?: string"));
        let stop = result_type(CanonicalEvent::Stop);
        assert!(stop.contains("outcome: 'deny'; reason: string; additionalContext?: never"), "{stop}");
        let before = result_type(CanonicalEvent::BeforeTool);
        for outcome in ["'deny'", "'allow'", "'ask'"] {
            assert!(before.contains(outcome), "{before}");
        }
        assert!(
            before.contains("outcome: 'deny'; reason: string; additionalContext?: string; extra?: { systemMessage?: string }; updatedInput?: never"),
            "{before}"
        );
        assert!(session.contains("extra?: { systemMessage?: string; env?: Record<string, string> }"), "{session}");
        assert!(!stop.contains("env?:"), "only sessionStart returns env: {stop}");
    }

    #[test]
    fn every_module_a_bundle_imports_has_a_declaration() {
        let files = declarations();
        for (_, file) in TSCONFIG_PATHS {
            assert!(files.get(file).is_some_and(|text| text.starts_with(&header())), "{file}");
        }
    }
}
