//! Host tables: what each host can receive, as data (D5 in docs/decisions.md). One JSON file per host, pinned to
//! the host version it was observed on, embedded in the binary and parsed once. These tables are the
//! single source for normalisation, planning and `inspect`; nothing else in the crate spells a native
//! event name or matcher.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

pub mod answer;
pub mod distribution;
pub mod layout;
pub mod parts;

use crate::vocabulary::canonical::{CanonicalEvent, Extra, ResultPart, Selector};
use crate::vocabulary::hook_event::HookEvent;
use crate::vocabulary::target::Target;

/// The embedded table files, in [`Target::ALL`] order.
const TABLE_SOURCES: [(Target, &str); Target::ALL.len()] = [
    (Target::Amp, include_str!("amp.json")),
    (Target::Claude, include_str!("claude.json")),
    (Target::ClaudeMod, include_str!("claude-mod.json")),
    (Target::Cline, include_str!("cline.json")),
    (Target::Codex, include_str!("codex.json")),
    (Target::Copilot, include_str!("copilot.json")),
    (Target::Cursor, include_str!("cursor.json")),
    (Target::Droid, include_str!("droid.json")),
    (Target::Gemini, include_str!("gemini.json")),
    (Target::Kilo, include_str!("kilo.json")),
    (Target::Opencode, include_str!("opencode.json")),
    (Target::Pi, include_str!("pi.json")),
    (Target::Portable, include_str!("portable.json")),
    (Target::Qwen, include_str!("qwen.json")),
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HostTable {
    pub target: Target,
    /// The host's product name, for messages.
    pub host: String,
    /// The host version (or docs snapshot) the table describes.
    pub host_version: String,
    /// A stable string naming this table's contract; changes whenever the table is re-pinned.
    pub revision: String,
    /// Where the facts come from.
    pub evidence: String,
    /// The folder under `testdata/envelopes/` that holds what the real host sent its hooks on
    /// stdin, one `<native event>.json` per event (and `<event>.<case>.json` variants), when they
    /// were recorded offline; the Workbench's editor starts from them.
    #[serde(default)]
    pub recorded_envelopes: Option<String>,
    /// `None` for a host with no hook surface.
    pub hooks: Option<HookSurface>,
    #[serde(default)]
    pub no_hooks_reason: Option<String>,
    /// The target whose plugin this one is another form of (Claude Code's hooks module is Claude
    /// Code's plugin): the same files at the same places, so a bundle targets one of them.
    #[serde(default)]
    pub form_of: Option<Target>,
    /// The host whose plugin this host loads as it is (Kilo CLI, an OpenCode fork, loads OpenCode's
    /// plugin modules): its table extends that host's, a bundle that targets it is built as that
    /// host's plugin (one folder serves both; the artifact's manifest names both), and `install`
    /// places that folder where this host loads plugins.
    #[serde(default)]
    pub served_by: Option<Target>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HookSurface {
    /// The folder of the artifact that is this host's plugin, when it cannot share the root (a
    /// Gemini extension's hooks file has Claude Code's path): its wrappers, runtime and bundles live
    /// there, and commands name them relative to it.
    #[serde(default)]
    pub folder: Option<String>,
    /// The unit of the document's timeouts.
    #[serde(default)]
    pub timeout_unit: TimeoutUnit,
    /// How the host runs several hooks of one event for one call, which a combined command does
    /// as the host would.
    #[serde(default)]
    pub several_hooks: SeveralHooks,
    /// The plugin-relative path of the host's hook document.
    pub document: String,
    /// The plugin-relative path of the host's plugin manifest.
    pub manifest: String,
    /// The shape of the hook document.
    pub document_format: DocumentFormat,
    /// The key of an entry's command line in a flat document (Copilot writes `bash`).
    #[serde(default = "command_key")]
    pub entry_command_key: String,
    /// The key of an entry's timeout in seconds in a flat document (Copilot writes `timeoutSec`).
    #[serde(default = "timeout_key")]
    pub entry_timeout_key: String,
    /// An entry's `type`, for hosts whose flat entries name it.
    #[serde(default)]
    pub entry_type: Option<String>,
    /// The envelope field naming the event, which the wrapper checks; `null`: the host sends none
    /// (Copilot's camelCase payloads), so the wrapper trusts the document that routed the event.
    #[serde(default = "event_name_key")]
    pub event_name_key: Option<String>,
    /// Whether the plugin manifest names the hook document (`"hooks": "./…"`); Claude Code loads
    /// `hooks/hooks.json` by itself and reports a pointer at it as a duplicate.
    pub manifest_points_to_document: bool,
    /// Whether the plugin manifest carries `author` (Codex 0.171's manifest model has no such key).
    pub manifest_author: bool,
    /// Whether the plugin manifest carries `license` (an SPDX id): Claude Code's plugin directory
    /// requires it or a LICENSE file; the other hosts' manifest models have no such key.
    pub manifest_license: bool,
    /// The plugin's descriptive keys its manifest carries (`homepage`, `repository`, `keywords`), as
    /// the host's manifest model has them.
    #[serde(default)]
    pub manifest_metadata: Vec<MetadataKey>,
    /// Where the host looks for the plugin's icon (a square PNG), if it shows one.
    #[serde(default)]
    pub icon: Option<String>,
    /// The placeholder the host replaces with the installed plugin's root in a hook command.
    pub root_token: String,
    /// How the host runs an entry's command line on POSIX systems.
    pub command_shell: CommandShell,
    /// How the host runs a hook's command on Windows, and the entry form agent-bundle writes so that
    /// every shell it may use there parses it (D17).
    pub windows: WindowsRun,
    /// The shapes of the host's in-process calls as recorded (a hook's arguments, an event object),
    /// which are native input too: the host's entry module makes its envelope of them, and the
    /// Workbench's replay and `hooks simulate` tell which event a recording is by its shape.
    #[serde(default)]
    pub recorded_calls: Vec<RecordedCall>,
    /// The module the host itself loads, for a host that runs hooks inside its own process
    /// (`commandShell: inProcess`, OpenCode's plugin): agent-bundle writes it there; it reads the hook
    /// document and runs each entry's wrapper module through the runtime's `decide`.
    #[serde(default)]
    pub entry_module: Option<String>,
    /// For a host that runs a file per event from a hooks folder instead of reading a document (Cline
    /// CLI's `PreToolUse`, `PostToolUse`, …): each native event's file name, without its extension.
    /// agent-bundle writes `<folder>/<name>.mjs` for each native event the plugin has hooks on, a
    /// script that runs them through the entry module.
    #[serde(default)]
    pub hook_files: BTreeMap<String, String>,
    /// Fixed keys the plugin manifest also carries (OpenCode's `package.json` names its module).
    #[serde(default)]
    pub manifest_fields: serde_json::Map<String, serde_json::Value>,
    /// What the host waits for a hook when the declaration gives no timeout (`None`: not documented).
    pub default_timeout_seconds: Option<u32>,
    /// Where the plugin declares the MCP server that hosts shared routes (D12), or why agent-bundle
    /// generates none for this host.
    pub mcp_server: Support<McpServerDocument>,
    /// Where the host reads the plugin's own MCP servers (the config's `mcpServers`), or why
    /// agent-bundle places none there. Not the shared runtime's server (`mcpServer`): these servers
    /// are started for the model to call, not for the first hook.
    pub plugin_mcp: Support<PluginMcp>,
    /// Where the host reads the plugin's skills, commands, agents and context file, and in which form.
    pub plugin_parts: parts::PluginParts,
    /// The keys of the host manifest's `interface` object (`plugin.interface`) with each value's
    /// JSON type (`string`, `array`), for a host whose manifest has one.
    #[serde(default)]
    pub manifest_interface: BTreeMap<String, String>,
    /// Where a handler's context finds the plugin's data folder and the session's project.
    pub places: Places,
    /// The process the host starts for a plugin's hook: its working folder and the variables it
    /// sets. `hooks simulate`, the snapshots and the Workbench run wrappers in this place.
    pub hook_process: HookProcess,
    /// The entry options a hook may declare that the host takes as keys of its entries.
    pub entry_options: EntryOptions,
    /// The answers beyond the canonical parts the host takes (a result's `extra`), each with where
    /// and how, or why it has none; every table names every one.
    pub answer_extras: BTreeMap<Extra, Support<AnswerExtra>>,
    /// Envelope fields every event carries (unless the event opts out).
    #[serde(default)]
    pub common_input: Vec<InputField>,
    pub events: BTreeMap<CanonicalEvent, Support<EventMapping>>,
    /// The event-route families (D12): each family's native event, envelope and answer channels,
    /// or why the host has none. A route's payload takes the fields whose canonical name is one of
    /// its family's payload fields (`vocabulary/family.rs`); the rest are only checked.
    #[serde(default)]
    pub families: BTreeMap<String, Support<EventMapping>>,
    pub selectors: BTreeMap<Selector, Support<SelectorMapping>>,
    /// Tools that run on the vendor's servers and never fire a hook, so selecting them is a mistake.
    #[serde(default)]
    pub hosted_tools: Vec<String>,
    /// Envelopes that other hosts send when they run this host's hook documents (VS Code's agent
    /// reads Claude Code's): recognised by keys this host never sends, and passed through by the
    /// wrapper (exit 0, nothing on stdout, one note) rather than failed as malformed.
    #[serde(default)]
    pub foreign_envelopes: Vec<ForeignEnvelope>,
    /// The module of in-process hooks the host loads beside its command hooks (Claude Code's mods):
    /// the events a hook may run on there, when its bundle can run in the module's environment.
    #[serde(default)]
    pub hooks_module: Option<HooksModule>,
    /// Hook entries that call a tool of the plugin's own MCP server, already connected, instead of
    /// starting a command (`mcp_tool`): the plugin's warm server answers them (`bundle.warmServer`).
    #[serde(default)]
    pub warm_server: Option<WarmServer>,
}

/// How a host calls a tool of a plugin's MCP server from a hook entry (Claude Code's `mcp_tool`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WarmServer {
    /// The entry's `type`.
    pub entry_type: String,
    /// How an entry names the plugin's server: `{plugin}` and `{server}` filled in.
    pub server_name: String,
    /// The config events whose hooks the server may answer: their every answer is the entry's text
    /// (read as a command's stdout), so nothing a hook says needs an exit code.
    pub events: Vec<CanonicalEvent>,
    /// How the entry's `input` names a field of the hook input: `<key>` stands for the field's key.
    pub placeholder: String,
    /// Where the facts come from.
    pub evidence: String,
}

/// A host's module of in-process hooks, loaded beside its command hooks (Claude Code's mods: the hook
/// document names it under `documentKey`). agent-bundle writes it: it registers each hook that runs
/// there and has the runtime's core decide each call, as a wrapper process would.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HooksModule {
    /// The module's plugin-relative path (inside the host's folder).
    pub module: String,
    /// The hook document's key listing hooks modules, relative to the document's folder.
    pub document_key: String,
    /// How long one hook may run per call there, counting its own time (the host's own limit, past
    /// which a hook is skipped unless its registration's `.catch` answers for it): a declared timeout
    /// longer than this keeps the hook a command.
    pub budget_seconds: u32,
    /// Every global the module's environment has: a bundle that reads any other, imports anything
    /// or loads modules with `import()` runs as a command instead.
    pub globals: Vec<String>,
    /// Where the facts come from.
    pub evidence: String,
    /// The config events a hook may run on in the module: the envelope agent-bundle's module makes of
    /// the host's call and the answers it carries out. Every other event stays a command hook.
    pub events: BTreeMap<CanonicalEvent, EventMapping>,
}

impl HookSurface {
    /// Whether the host runs hooks inside its own process (`commandShell: inProcess`): no command,
    /// its entry module imports each wrapper.
    pub fn in_process(&self) -> bool {
        self.command_shell == CommandShell::InProcess
    }
}

/// An envelope another host sends when it runs this host's hook document.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ForeignEnvelope {
    /// Who sends it, as the wrapper's note names it.
    pub sender: String,
    /// Keys it always has.
    pub present: Vec<String>,
    /// Keys it never has that this host always sends (on `events`): so no envelope of this host is
    /// ever taken for it (a guard is never skipped on its own host).
    pub absent: Vec<String>,
    /// Variables the sender always sets in a hook's environment, when its envelope has no key of its
    /// own: a recogniser that tells it by a key it lacks alone would take a malformed envelope of
    /// this host for it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub present_env: Vec<String>,
    /// The native events of this host whose wrappers recognise it (empty: every event), where the
    /// keys this host always sends differ by event (a tool call's `tool_use_id`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
    /// Where the shape comes from.
    pub evidence: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum DocumentFormat {
    /// `{"hooks": {Event: [{"matcher"?, "hooks": [{"type": "command", "command", "timeout"?}]}]}}`
    /// (Claude Code, Codex).
    Grouped,
    /// `{"version": 1, "hooks": {event: [{"command", "matcher"?, "timeout"?}]}}` (Cursor).
    Flat,
}

fn command_key() -> String {
    "command".into()
}

fn timeout_key() -> String {
    "timeout".into()
}

fn event_name_key() -> Option<String> {
    Some("hook_event_name".into())
}

/// How a host runs several of a plugin's hooks that one call fires.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SeveralHooks {
    /// All at once, every answer combined (Claude Code, Codex, Gemini CLI, Qwen Code, Droid).
    #[default]
    Together,
    /// One after another in the document's order, each with its own timeout, stopping at the first
    /// that denies: the later ones do not run (Copilot CLI 1.0.102, observed).
    InTurn,
}

/// How a host's document writes a timeout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum TimeoutUnit {
    #[default]
    Seconds,
    /// Gemini CLI: a seconds value there would kill the hook at once.
    Milliseconds,
    /// Qwen Code: seconds, but a number of 1000 or more is read as milliseconds (its older unit),
    /// so 1000 s and more are written in milliseconds.
    SecondsBelowAThousand,
}

impl TimeoutUnit {
    /// The document's number for `seconds`.
    pub fn of(self, seconds: u32) -> u64 {
        match self {
            TimeoutUnit::Seconds => u64::from(seconds),
            TimeoutUnit::Milliseconds => u64::from(seconds) * 1000,
            TimeoutUnit::SecondsBelowAThousand if seconds < 1000 => u64::from(seconds),
            TimeoutUnit::SecondsBelowAThousand => u64::from(seconds) * 1000,
        }
    }

    /// A document's number with its unit, as the host reads it (`10 s`, `10000 ms`).
    pub fn show(self, number: u64) -> String {
        let symbol = match self {
            TimeoutUnit::Seconds => "s",
            TimeoutUnit::Milliseconds => "ms",
            TimeoutUnit::SecondsBelowAThousand if number < 1000 => "s",
            TimeoutUnit::SecondsBelowAThousand => "ms",
        };
        format!("{number} {symbol}")
    }
}

/// A cell of a host table: either the host's mapping or the recorded reason it has none.
#[derive(Debug, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Support<T> {
    Supported(T),
    Unsupported(Unsupported),
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Unsupported {
    pub unsupported: String,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EventMapping {
    /// The host's own event name, as written in its hook document and in `hook_event_name`.
    pub native: String,
    /// The event's own envelope fields, checked after the common ones.
    #[serde(default)]
    pub input: Vec<InputField>,
    /// What the host waits for a hook of this event when the entry gives no timeout, where it is not
    /// the host-wide default (SessionEnd's small budget).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_timeout_seconds: Option<u32>,
    /// The event has none of the host's common fields (Cursor's `workspaceOpen`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skip_common_input: bool,
    /// Which parts of a handler's result this host can deliver on this event, and how.
    #[serde(default)]
    pub result: ResultChannels,
    /// The host also fires this event where the canonical event does not happen (Copilot's agentStop
    /// at the end of every subagent turn, marked by `agentId`): with this envelope field present, the
    /// wrapper passes without running the handler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_when_present: Option<String>,
    /// The host fires this event also where the canonical event does not happen, told by an envelope
    /// field (a dotted path) that then differs from `equals` (Pi's tool_result of a failed call, its
    /// turn_end of a turn that goes on with tool calls): the wrapper passes without running the handler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_unless: Option<Condition>,
    /// How a fail-closed hook on this event blocks when it fails (only tool events that can deny).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_closed: Option<FailClosed>,
    /// Whether the host's matcher on this event compares an envelope field other than the tool name
    /// (SessionStart's `source`), or why it cannot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_matcher: Option<Support<SourceMatcher>>,
}

/// The plugin file that declares MCP servers: `{ "mcpServers": { <name>: { command, args } } }`.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct McpServerDocument {
    /// Plugin-relative path of the document.
    pub document: String,
    /// The placeholder the host replaces with the installed plugin's root in the server's arguments.
    pub root_token: String,
}

/// A descriptive key of a plugin manifest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum MetadataKey {
    Homepage,
    Repository,
    Keywords,
}

/// Where and how a host reads a plugin's own MCP servers.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PluginMcp {
    /// Plugin-relative path of the file that lists the servers; the plugin manifest itself when it is
    /// the manifest's path (Gemini's and Qwen's extension manifests).
    pub document: String,
    /// The key of the servers' object in that file.
    pub key: String,
    /// The manifest key that names the file (`"mcpServers": "./…"`), for hosts that read it only
    /// when the manifest points at it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest_pointer: Option<String>,
    /// The placeholder the host replaces with the installed plugin's root in a server's `command`,
    /// `args`, `cwd` and `env`: what `${pluginRoot}` in the config becomes.
    pub root_token: String,
    /// Where the host expands its root variable in a local server's entry (default: `command`,
    /// `args`, `env` and `cwd`). A value naming `${pluginRoot}` anywhere else is written relative to
    /// the root (`./…`), and the server is started in the root: `cwd` is then `rootCwd`.
    #[serde(default = "every_root_place")]
    pub root_expanded_in: Vec<RootPlace>,
    /// The `cwd` that starts a server in the plugin's root (Codex takes `./`, relative to it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_cwd: Option<String>,
    /// Fixed keys every local (command) server entry also carries.
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub local_fields: serde_json::Map<String, serde_json::Value>,
    /// The remote transports the host takes (`http`, `sse`), each with how its entry is written.
    #[serde(default)]
    pub remote: BTreeMap<String, RemoteForm>,
    /// The name the host gives a tool of the plugin's server: `{plugin}`, `{server}` and `{tool}`
    /// replaced by the plugin's, the server's and the tool's names.
    pub tool_name: String,
    /// Whether the host was seen running a plugin's server here, or it is read from its code or docs.
    pub proof: Proof,
    /// Where the facts come from.
    pub evidence: String,
}

impl PluginMcp {
    /// The host's name for tool `tool` of the plugin's server `server`.
    pub fn tool_name(&self, plugin: &str, server: &str, tool: &str) -> String {
        self.tool_name.replace("{plugin}", plugin).replace("{server}", server).replace("{tool}", tool)
    }
}

/// A key of a local MCP server's entry where a host may expand its root variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RootPlace {
    Command,
    Args,
    Env,
    Cwd,
}

fn every_root_place() -> Vec<RootPlace> {
    vec![RootPlace::Command, RootPlace::Args, RootPlace::Env, RootPlace::Cwd]
}

/// How a host's entry for a remote MCP server is written.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RemoteForm {
    /// The key of the server's URL (`url`; Gemini CLI's streamable HTTP: `httpUrl`).
    pub url_key: String,
    /// The entry's `type`, where the host names the transport so.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// A matcher over a session's source: what a sessionStart entry's `sources` are written as.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SourceMatcher {
    /// The envelope field the host's matcher compares.
    pub field: String,
    /// The values the host sends in it.
    pub values: Vec<String>,
}

/// What makes a failing hook block the tool on a host (D6 in docs/decisions.md, `failClosed: true`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FailClosed {
    /// Keys the hook's entry in the host document gains, so that failures the wrapper cannot catch
    /// (the host's own kill at the timeout, a crash before the runtime loads) also block. `None`:
    /// the host has no such field.
    pub entry: Option<serde_json::Map<String, serde_json::Value>>,
    /// The exit code with which the wrapper blocks when it catches the failure itself (the reason
    /// goes on stderr, which the host shows the model).
    pub exit: i32,
    /// What stays uncovered without an entry field, for `inspect` and the matrix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uncovered: Option<String>,
    /// The host blocks the call when any hook of the event exits non-zero, fail-closed or not (Copilot
    /// CLI's preToolUse): a combined command blocks on a failure of any of its hooks, as the host
    /// would on that hook's own command.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub any_failure_blocks: bool,
}

/// One field of a host's stdin envelope: how it is checked and which canonical payload key it
/// decodes to.
/// How a host runs the command line of a hook entry on POSIX systems. A wrapper's command uses the
/// shell to hand the wrapper the host's stdout as its answer channel on another descriptor and to
/// point fd 1 at stderr, so nothing the handler writes to fd 1 in any way reaches the host's stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum CommandShell {
    /// `bash -c <command>`: Claude Code (an entry without `args`), Gemini CLI, and Copilot CLI's
    /// `bash` key. The command's own redirections do the handover.
    Bash,
    /// A shell that need not be a POSIX one: Codex runs `$SHELL -lc <command>` (the user's login
    /// shell: fish, tcsh or nushell parse redirections otherwise, or not at all), and Cursor's docs
    /// only say that the command runs through a shell. The command hands over by running `sh -c`.
    AnyShell,
    /// No command and no process: the host loads the table's `entryModule` in its own process, and
    /// that module imports each entry's wrapper (the document names it, relative to the module) and
    /// runs it through the runtime's `decide` (OpenCode). Answers are objects the module applies.
    InProcess,
}

/// How a host runs a hook's command on Windows (D17), where each host uses a shell of its own: the
/// entry form every shell it may use there parses, and where that knowledge comes from.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WindowsRun {
    /// What runs an entry's command there, as the matrix shows it.
    pub shell: String,
    /// How the plugin's root reaches the command there, as the matrix shows it.
    pub root: String,
    /// The entry agent-bundle writes.
    pub form: WindowsForm,
    /// Whether a Windows build of the host was seen running it here, or it is read from the host's
    /// code or only from its docs.
    pub proof: Proof,
    /// Where the facts come from.
    pub evidence: String,
}

/// The entry form that keeps a hook running on Windows.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase", tag = "form")]
pub enum WindowsForm {
    /// The host starts the entry's program itself, on every system, with the entry's arguments
    /// (Claude Code's `command` with `args`): `node` on a loader that finds the wrapper from every
    /// form of the root the host may hand over, then the wrapper. No shell parses it, so the one
    /// entry serves every system; there is no handover, so the runtime keeps fd 1 off the answer
    /// itself.
    #[serde(rename_all = "camelCase")]
    Exec {
        /// The entry's key of the program's arguments.
        args_key: String,
    },
    /// The entry carries the Windows command under a key of its own beside the POSIX one (Codex
    /// `commandWindows`, Copilot CLI `powershell`), written for the shells that key's command runs in.
    #[serde(rename_all = "camelCase")]
    OwnKey {
        key: String,
        /// How that command names the plugin's root.
        root_token: String,
        /// The shells its command must parse in.
        shells: Vec<WindowsShell>,
    },
    /// One command for every system: it must parse in the POSIX shell and in the Windows shells
    /// alike, so it is `node "<root>/<wrapper>"` with no redirection and the runtime keeps fd 1 off
    /// the answer itself.
    #[serde(rename_all = "camelCase")]
    SameCommand {
        /// The Windows shells it must parse in besides the POSIX one.
        shells: Vec<WindowsShell>,
        /// Whether the root may be quoted: `false` where a host hands the command to cmd.exe with
        /// every `"` escaped as `\"`, which node then reads as part of the path (Qwen Code), so the
        /// command holds no quote at all and a root with a space breaks it.
        quote_root: bool,
    },
    /// No command: the host imports the plugin's module in its own process (OpenCode).
    InProcess,
}

/// A Windows shell a host may run a command in: what the command's quoting must survive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum WindowsShell {
    /// `cmd.exe /c`: `%NAME%` expands, `"` quotes, `^&|<>` are operators outside quotes.
    Cmd,
    /// Windows PowerShell or pwsh `-Command`: `$` and `` ` `` are special inside double quotes.
    PowerShell,
    /// Git for Windows' bash: a POSIX shell.
    GitBash,
}

impl WindowsShell {
    pub fn name(self) -> &'static str {
        match self {
            WindowsShell::Cmd => "cmd.exe",
            WindowsShell::PowerShell => "PowerShell",
            WindowsShell::GitBash => "Git Bash",
        }
    }

    /// Shells as a message names them: `cmd.exe, PowerShell or Git Bash`.
    pub fn list(shells: &[WindowsShell]) -> String {
        let names: Vec<&str> = shells.iter().map(|shell| shell.name()).collect();
        match names.as_slice() {
            [] => "no shell".to_string(),
            [one] => (*one).to_string(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        }
    }
}

/// Where a hook finds the plugin's persistent data folder and the session's project folder on this
/// host: the variables the host sets for a plugin's hooks and the envelope keys naming the project,
/// each list in the order tried. A host with no data variable gets agent-bundle's default folder
/// (the runtime's `defaultDataDir`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Places {
    /// Variables naming the plugin's data folder; the first one set and not empty wins.
    pub data_env: Vec<String>,
    /// Variables naming the session's project folder; the first one set and not empty wins.
    pub project_env: Vec<String>,
    /// Envelope keys holding the project folder when no variable does: a string, or a list whose
    /// first item is one (Cursor's `workspace_roots`).
    pub project_keys: Vec<String>,
    pub proof: Proof,
    pub evidence: String,
}

/// The process a host starts for one of a plugin's hooks (issue 47): the folder it runs in and the
/// variables the host sets in it, each named by what it holds, from the environments recorded in
/// the real programs (`testdata/envelopes/*/hook-env.json`). Variables the host sets for its own use
/// (its PID, sockets, tokens, model) are left out: a plugin has no business reading them.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HookProcess {
    /// The folder the hook's process starts in.
    pub working_folder: HookFolder,
    /// The variables the host sets, each with what it holds.
    pub env: BTreeMap<String, HookValue>,
    /// A file the host names in a variable on some events, whose lines it reads back after the hook
    /// (Claude Code's `CLAUDE_ENV_FILE`, whose `export` lines later shell commands get).
    #[serde(default)]
    pub env_file: Option<EnvFile>,
    pub proof: Proof,
    pub evidence: String,
}

/// One shape of a host's in-process calls as recorded: the paths it always has, which native event
/// it is (fixed, or read at a path of the recording) and where its tool's name is.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RecordedCall {
    /// The native event of every recording of this shape.
    #[serde(default)]
    pub native: Option<String>,
    /// Or the dotted path of the recording that names its native event.
    #[serde(default)]
    pub event_at: Option<String>,
    /// Dotted paths every recording of this shape has.
    pub requires: Vec<String>,
    /// The dotted path of the tool's name, which a matcher compares.
    #[serde(default)]
    pub tool_at: Option<String>,
}

/// The value at a dotted path of `value`.
fn at<'v>(value: &'v serde_json::Value, path: &str) -> Option<&'v serde_json::Value> {
    path.split('.').try_fold(value, |value, key| value.get(key))
}

/// A folder a host hands a hook's process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum HookFolder {
    /// The session's project folder.
    Project,
    /// The installed plugin's folder.
    PluginRoot,
}

/// What a variable of a hook's process holds.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum HookValue {
    /// The session's project folder.
    Project,
    /// The installed plugin's folder.
    PluginRoot,
    /// The plugin's own writable data folder, which the host keeps across sessions.
    PluginData,
    /// The folder of the host's hook document in the installed plugin.
    HooksFolder,
    /// The session's id, as the envelope's `sessionId` has it.
    SessionId,
    /// This text, always.
    Literal(String),
}

/// A file whose path the host gives in `variable` on `events` and reads back after the hook.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EnvFile {
    pub variable: String,
    /// The native events it is given on.
    pub events: Vec<String>,
    /// What the host does with the lines written there.
    pub read_back: String,
}

/// Entry options a hook may declare, each the key the host's entries take it as, or why the host has
/// none.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EntryOptions {
    /// `statusMessage`: a line the host shows while the hook runs. Without it the line is simply not
    /// shown.
    pub status_message: Support<EntryOption>,
    /// `async: true`: the host goes on without waiting for the hook. Without it the wrapper answers
    /// at once and runs the handler detached (`detach` in its contract).
    #[serde(rename = "async")]
    pub run_async: Support<EntryOption>,
}

/// How a host takes an answer beyond the canonical parts, and on which of its events.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AnswerExtra {
    pub write: ExtraWrite,
    /// The native events that take it; empty: every event.
    #[serde(default)]
    pub events: Vec<String>,
    pub proof: Proof,
    pub evidence: String,
}

/// Where an extra answer goes.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ExtraWrite {
    /// A top-level field of the JSON answer.
    Field(String),
    /// `export NAME='value'` lines appended to the file the named variable holds (Claude Code's
    /// `CLAUDE_ENV_FILE`, which it sources before each later shell command).
    EnvFile(String),
}

/// What a wrapper does with an extra answer on one host event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExtraSupport {
    Deliver(ExtraWrite),
    Drop(String),
    Refuse(&'static str),
}

/// An entry option the host takes: its key in the host's entry, and how that is known.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EntryOption {
    pub key: String,
    pub proof: Proof,
    pub evidence: String,
}

/// Where a fact about a host comes from, as the matrix marks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Proof {
    /// Seen: the host's own program ran it here (under Wine, for a Windows build).
    Observed,
    /// Read in the host's published code, not run.
    Source,
    /// Only written in the host's documentation.
    Docs,
    /// Neither seen nor read: the host's Windows build and its documentation say nothing here, so the
    /// form is the one that parses in every shell it could use.
    Unverified,
}

impl Proof {
    /// How the matrix marks it.
    pub fn word(self) -> &'static str {
        match self {
            Proof::Observed => "observed",
            Proof::Source => "source-derived",
            Proof::Docs => "docs-derived",
            Proof::Unverified => "unverified",
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct InputField {
    /// The native key.
    pub key: String,
    /// Other native keys that may carry the value when `key` is absent (first present wins).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<String>,
    /// The canonical payload key (`None`: checked, not handed to the handler).
    #[serde(rename = "as")]
    pub canonical: Option<String>,
    #[serde(rename = "type")]
    pub kind: FieldKind,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub required: bool,
    /// Allowed values of an `enum` field.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    /// A `string[]` that must hold at least one item.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub non_empty: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decode: Option<Decode>,
    /// The value `hooks simulate` writes when the canonical input has none (the host always sends
    /// the field, but the canonical payload has no key for it).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub simulate: Option<serde_json::Value>,
}

/// Distinguishes `"simulate": null` (a value) from an absent key.
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<serde_json::Value>, D::Error> {
    serde_json::Value::deserialize(deserializer).map(Some)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum FieldKind {
    #[serde(rename = "string")]
    String,
    #[serde(rename = "string|null")]
    NullableString,
    #[serde(rename = "boolean")]
    Boolean,
    #[serde(rename = "number")]
    Number,
    #[serde(rename = "object")]
    Object,
    #[serde(rename = "string[]")]
    StringArray,
    #[serde(rename = "enum")]
    Enum,
    #[serde(rename = "any")]
    Any,
}

/// How a native value becomes the canonical one beyond a key rename.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Decode {
    /// A count; the canonical value is `count > 0` (Cursor's `loop_count` → `reentry`).
    Positive,
    /// A JSON text; the canonical value is what it encodes (Cursor's `tool_output`).
    Json,
}

/// The answer channels of one host event. `None` means the host cannot take that part of a result
/// on this event, so a handler returning it fails instead of being dropped silently.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ResultChannels {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<ContextChannel>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deny: Option<DenyChannel>,
    /// The host honours a denial only when this envelope field has this value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deny_when: Option<Condition>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<RewriteChannel>,
    /// The permission decision written beside a rewrite, for hosts that apply `updatedInput` only
    /// together with one (D6 in docs/decisions.md: the least-privileged decision that makes the host apply it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rewrite_decision: Option<String>,
    /// An explicit `outcome: 'allow'`, written as the host's permission decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow: Option<PermissionChannel>,
    /// `outcome: 'ask'`: the host asks the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask: Option<PermissionChannel>,
    /// Why a part has no channel here, where the table records it (otherwise a message is derived).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub missing: BTreeMap<ResultPart, String>,
    /// Parts the page names as illegal on this host's event, beyond the canonical rules ("on Codex
    /// agentStop cannot add context"): they fail the hook instead of being dropped.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub refuses: BTreeMap<ResultPart, String>,
    /// What the host does with a part it takes beyond what its channel says, where a user would not
    /// expect it (Cline CLI's cancel: the call does not run, and the run ends without the model being
    /// told the reason): the matrix's footnote to the delivered part.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub caveats: BTreeMap<ResultPart, String>,
}

/// A permission decision's field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PermissionChannel {
    /// `hookSpecificOutput.permissionDecision` (Claude Code, Codex).
    PermissionDecision,
    /// Cursor's top-level `permission`.
    CursorPermission,
    /// A top-level `permissionDecision` (Copilot's camelCase answers).
    TopLevelPermissionDecision,
    /// `hookSpecificOutput.decision.behavior` (a PermissionRequest's answer on Claude Code and Codex).
    PermissionBehavior,
}

/// What a wrapper does with one part of a result on one host event (D6 in docs/decisions.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PartSupport {
    /// Written through the host's channel.
    Deliver,
    /// Legal, but this host has no channel: the rest is delivered and one note on stderr names it.
    Drop(String),
    /// Illegal here: the hook fails with this reason.
    Refuse(String),
    /// A guard part (a denial, an ask, a rewrite) that is legal but has no channel on this host
    /// event, where the host blocks on a hook's blocking exit: the wrapper blocks the call with this
    /// exit code and the reason on stderr, so the part is never lost to a non-blocking failure (D13).
    Block { reason: String, exit: i32 },
}

impl ResultChannels {
    fn has(&self, part: ResultPart) -> bool {
        match part {
            ResultPart::Deny => self.deny.is_some(),
            ResultPart::Allow => self.allow.is_some(),
            ResultPart::Ask => self.ask.is_some(),
            ResultPart::AdditionalContext => self.additional_context.is_some(),
            ResultPart::UpdatedInput => self.updated_input.is_some(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum ContextChannel {
    /// `hookSpecificOutput.additionalContext` beside `hookEventName` (Claude Code, Codex).
    #[serde(rename = "hookSpecificOutput")]
    HookSpecificOutput,
    /// Top-level `additional_context` (Cursor).
    #[serde(rename = "additional_context")]
    AdditionalContext,
    /// Top-level `additionalContext` (Copilot).
    #[serde(rename = "topLevel")]
    TopLevel,
    /// In process: `appendOutput`, which the entry module appends to the tool's output that the
    /// model reads (OpenCode's `tool.execute.after`).
    #[serde(rename = "appendOutput")]
    AppendOutput,
    /// In process: `system`, which the entry module adds to the session's system prompt on every
    /// later model request (OpenCode's `experimental.chat.system.transform`).
    #[serde(rename = "system")]
    System,
    /// In a hooks module: `context`, which the module adds to the call's result as the context the
    /// model reads after the tool's result (Claude Code's `tool.call` result `context`).
    #[serde(rename = "context")]
    Context,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum DenyChannel {
    /// `hookSpecificOutput.permissionDecision: "deny"` with `permissionDecisionReason`.
    PermissionDecision,
    /// Top-level `{ "decision": "block", "reason": … }`.
    DecisionBlock,
    /// Cursor's `{ "permission": "deny", "user_message", "agent_message" }`.
    CursorPermission,
    /// Cursor's `{ "followup_message": … }`: the agent goes on with the reason as its next prompt.
    FollowupMessage,
    /// `hookSpecificOutput.decision: { "behavior": "deny", "message": … }` (PermissionRequest).
    PermissionBehavior,
    /// A top-level `permissionDecision: "deny"` with `permissionDecisionReason` (Copilot).
    TopLevelPermissionDecision,
    /// `{ "decision": "deny", "reason": … }` (Gemini CLI).
    DecisionDeny,
    /// `{ "continue": false, "stopReason": … }`: the host stops (Claude Code's TeammateIdle).
    ContinueStopReason,
    /// Cursor's `{ "continue": false, "user_message": … }` (beforeSubmitPrompt).
    ContinueUserMessage,
    /// In process: `{ "throw": reason }`, which the entry module throws as an `Error` with the reason
    /// as its message (OpenCode blocks the tool and shows the model that message).
    Throw,
    /// In a hooks module: `{ "deny": reason }`, which the module answers the call with (Claude Code's
    /// `tool.call`: the tool does not run, and the model reads the reason as its error result).
    Deny,
    /// In process: `{ "block": reason }`, which the entry module answers as `{ block: true, reason }`
    /// (Pi's tool_call: the tool does not run, and the model reads the reason as the tool's result).
    Block,
    /// In process: `{ "followUp": reason }`, which the entry module sends as a follow-up message that
    /// starts another turn (Pi's turn_end of the final turn: the agent goes on with the reason).
    FollowUp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum RewriteChannel {
    /// `hookSpecificOutput.updatedInput`.
    #[serde(rename = "hookSpecificOutput")]
    HookSpecificOutput,
    /// Cursor's `{ "permission": "allow", "updated_input": … }`.
    #[serde(rename = "cursorUpdatedInput")]
    CursorUpdatedInput,
    /// Copilot's `modifiedArgs`, which replaces the tool's arguments whole.
    #[serde(rename = "modifiedArgs")]
    ModifiedArgs,
    /// Gemini's `hookSpecificOutput.tool_input`, which replaces the tool's arguments whole.
    #[serde(rename = "hookSpecificToolInput")]
    HookSpecificToolInput,
    /// In process: `{ "args": … }`, with which the entry module replaces the tool's arguments whole
    /// (OpenCode's `output.args`).
    #[serde(rename = "args")]
    Args,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    pub key: String,
    pub equals: serde_json::Value,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelectorMapping {
    /// Regex alternatives for the host's tool names (a plain name is its own regex).
    pub matches: Vec<String>,
    /// For each alternative of `matches` (by its text), where the canonical tool input is in the
    /// tool's native input: the one source of `tool.kind` and the canonical fields a wrapper hands a
    /// handler, as `matches` is of the matchers.
    pub input: BTreeMap<String, ToolInputMap>,
}

/// Where a tool's canonical input fields are in its native input (`tool_input`, `toolArgs`): each
/// a native key, or several tried in order. A field the map names and the input lacks fails the
/// hook (a guard is never handed a call it cannot judge), unless listed in `optional`; `content`,
/// `cwd` and `edits` are always optional.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ToolInputMap {
    /// A shell tool's command line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<NativeKeys>,
    /// A shell tool's working folder, where the tool takes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<NativeKeys>,
    /// The file (or folder) a file tool reads or writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_path: Option<NativeKeys>,
    /// The whole new content of a written file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<NativeKeys>,
    /// A patch text (`*** Begin Patch` … `*** End Patch`), parsed into the files it touches and
    /// their edits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch: Option<NativeKeys>,
    /// Replacements of text in the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edits: Option<EditsMap>,
    /// The files a tool reads, as a list (Cline's `read_files.files`): each element a path, or an
    /// object holding one under `path`. Every one is in `filePaths`, the first is `filePath`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_list: Option<FileListMap>,
    /// A regex over the tool's name with the groups `server` and `tool` (either may be absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_name: Option<String>,
    /// An envelope object naming the MCP server and tool, preferred over `mcpName`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_context: Option<McpContext>,
    /// Mapped fields the host may leave out (`Glob` without a `path`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub optional: Vec<String>,
}

/// One alternative of a selector, with how its input maps: what a wrapper needs to tell a tool call's
/// canonical identity.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ToolIdentity<'t> {
    #[serde(serialize_with = "selector_name")]
    pub kind: Selector,
    /// The alternative as the matchers have it (a regex the whole name must match).
    pub pattern: &'t str,
    /// In a wrapper's contract, as [`ToolInputMap::for_runtime`] gives it.
    #[serde(serialize_with = "input_for_runtime")]
    pub input: &'t ToolInputMap,
}

fn input_for_runtime<S: serde::Serializer>(input: &&ToolInputMap, serializer: S) -> Result<S::Ok, S::Error> {
    input.for_runtime().serialize(serializer)
}

/// A tool's input map as the runtime reads it: [`ToolInputMap::native_keys`] of every keyed field
/// under `keys`, and the parts of the map that are not keys of the input.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeInputMap<'t> {
    pub keys: BTreeMap<&'static str, Vec<&'t str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edits: Option<&'t EditsMap>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_list: Option<&'t FileListMap>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mcp_name: Option<&'t str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mcp_context: Option<&'t McpContext>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub optional: &'t [String],
}

impl ToolInputMap {
    /// The canonical fields a tool keeps as strings under native keys of its input.
    pub const KEYED_FIELDS: [&'static str; 5] = ["command", "cwd", "filePath", "content", "patch"];

    /// The one rule from a canonical field to the native keys of a tool's input that hold it: the
    /// keys tried in order when a call is read (the runtime's canonical tool), the first the one a
    /// canonical field is written under where the call holds none of them (a rewrite in canonical
    /// words, a call moved to another host's tool by the workbench). Empty: the tool has no such
    /// field (or `field` is not one of [`ToolInputMap::KEYED_FIELDS`]).
    pub fn native_keys(&self, field: &str) -> Vec<&str> {
        let keys = match field {
            "command" => &self.command,
            "cwd" => &self.cwd,
            "filePath" => &self.file_path,
            "content" => &self.content,
            "patch" => &self.patch,
            _ => &None,
        };
        keys.as_ref().map(NativeKeys::keys).unwrap_or_default()
    }

    /// Every key at the top of the tool's input that this map reads a canonical field from: the keyed
    /// fields' keys, an edit list's key (or a single edit's texts), a file list's key.
    pub fn input_keys(&self) -> Vec<&str> {
        let mut keys: Vec<&str> = Self::KEYED_FIELDS.iter().flat_map(|field| self.native_keys(field)).collect();
        if let Some(edits) = &self.edits {
            match &edits.list {
                Some(list) => keys.push(list),
                None => keys.extend([edits.old_text.as_str(), edits.new_text.as_str()]),
            }
        }
        keys.extend(self.file_list.iter().map(|files| files.list.as_str()));
        keys
    }

    /// This map as a wrapper's contract carries it to the runtime: the native keys of each keyed
    /// field the tool has, from [`ToolInputMap::native_keys`], so the runtime applies the rule and
    /// never restates it.
    pub fn for_runtime(&self) -> RuntimeInputMap<'_> {
        RuntimeInputMap {
            keys: Self::KEYED_FIELDS
                .iter()
                .map(|field| (*field, self.native_keys(field)))
                .filter(|(_, keys)| !keys.is_empty())
                .collect(),
            edits: self.edits.as_ref(),
            file_list: self.file_list.as_ref(),
            mcp_name: self.mcp_name.as_deref(),
            mcp_context: self.mcp_context.as_ref(),
            optional: &self.optional,
        }
    }
}

fn selector_name<S: serde::Serializer>(selector: &Selector, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(selector.name())
}

/// One native key, or several tried in order.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(untagged)]
pub enum NativeKeys {
    One(String),
    FirstOf(Vec<String>),
}

impl NativeKeys {
    pub fn keys(&self) -> Vec<&str> {
        match self {
            NativeKeys::One(key) => vec![key.as_str()],
            NativeKeys::FirstOf(keys) => keys.iter().map(String::as_str).collect(),
        }
    }
}

/// Where an edit's old and new text are: in the input itself, or in each element of its `list`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EditsMap {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<String>,
    pub old_text: String,
    pub new_text: String,
    /// An edit may leave the old text out: it then inserts or creates (Cline's `editor` without
    /// `old_text`), read as an edit whose old text is empty.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub old_optional: bool,
}

/// Where a list of files is in a tool's input, and where each element holds its path.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FileListMap {
    pub list: String,
    pub path: String,
}

/// An envelope object that names an MCP call's server and tool (Gemini's `mcp_context`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct McpContext {
    pub key: String,
    pub server: String,
    pub tool: String,
}

impl<T> Support<T> {
    pub fn supported(&self) -> Result<&T, &str> {
        match self {
            Support::Supported(value) => Ok(value),
            Support::Unsupported(Unsupported { unsupported }) => Err(unsupported),
        }
    }
}

impl HookSurface {
    /// Every envelope field of `event`, common ones first.
    /// The envelope key a matcher of `mapping`'s event compares, with what it names: the session's
    /// source on an event the host filters by source (sessionStart), else the tool's name, where
    /// the envelope has one.
    pub fn matcher_subject<'s>(&'s self, mapping: &'s EventMapping) -> Option<(&'s str, &'static str)> {
        match mapping.source_matcher.as_ref().and_then(|m| m.supported().ok()) {
            Some(source) => Some((source.field.as_str(), "source")),
            None => self
                .input_fields(mapping)
                .find(|f| f.canonical.as_deref() == Some("toolName"))
                .map(|f| (f.key.as_str(), "tool")),
        }
    }

    /// The native event a recorded in-process call is, and its tool's name, when `value` has the
    /// shape of one of the host's recorded calls ([`RecordedCall`]).
    pub fn recorded_call<'v>(&self, value: &'v serde_json::Value) -> Option<(String, Option<&'v str>)> {
        self.recorded_calls.iter().find_map(|call| {
            if !call.requires.iter().all(|path| at(value, path).is_some()) {
                return None;
            }
            let native = match (&call.native, &call.event_at) {
                (Some(native), _) => native.clone(),
                (None, Some(path)) => at(value, path)?.as_str()?.to_string(),
                (None, None) => return None,
            };
            Some((native, call.tool_at.as_deref().and_then(|path| at(value, path)?.as_str())))
        })
    }

    pub fn input_fields<'s>(&'s self, mapping: &'s EventMapping) -> impl Iterator<Item = &'s InputField> {
        let common = if mapping.skip_common_input { &[][..] } else { &self.common_input[..] };
        // An event's own spec of a field replaces the common one (Codex agent events require
        // `permission_mode` with its values; other events only type it).
        common.iter().filter(|c| !mapping.input.iter().any(|own| own.key == c.key)).chain(mapping.input.iter())
    }
}

impl HostTable {
    /// The host's mapping of `event`, or why it has none.
    pub fn event(&self, event: CanonicalEvent) -> Result<&EventMapping, &str> {
        match &self.hooks {
            Some(surface) => surface.events[&event].supported(),
            None => Err(self.no_hooks_reason()),
        }
    }

    /// The host's mapping of a route family, or why it has none.
    pub fn family(&self, family: crate::vocabulary::family::Family) -> Result<&EventMapping, &str> {
        match &self.hooks {
            Some(surface) => match surface.families.get(family.name) {
                Some(support) => support.supported(),
                None => Err("the host table does not list this family"),
            },
            None => Err(self.no_hooks_reason()),
        }
    }

    /// The host's matcher alternatives for `selector`, or why it has none.
    pub fn selector(&self, selector: Selector) -> Result<&SelectorMapping, &str> {
        match &self.hooks {
            Some(surface) => surface.selectors[&selector].supported(),
            None => Err(self.no_hooks_reason()),
        }
    }

    /// The tool names this table knows for the host: every selector alternative that is a plain name
    /// (`Bash`, `apply_patch`), then the hosted tools, each once. Host matchers compare names
    /// case-sensitively, so a native selector that differs from one of these only in case is dead.
    pub fn tool_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        let Some(surface) = &self.hooks else { return names };
        let mappings = Selector::ALL.iter().filter_map(|s| surface.selectors.get(s)?.supported().ok());
        let alternatives = mappings.flat_map(|m| &m.matches);
        for name in alternatives.chain(&surface.hosted_tools).map(String::as_str) {
            if is_plain_name(name) && !names.contains(&name) {
                names.push(name);
            }
        }
        names
    }

    /// How the host's tool names map to canonical tools, in the order a wrapper tries them: every
    /// selector's plain names first, then its patterns (so `mcp`'s wide patterns are tried last), in
    /// [`Selector::ALL`] order within each. A name none of them matches is a tool of kind `other`.
    pub fn tool_identities(&self) -> Vec<ToolIdentity<'_>> {
        let Some(surface) = &self.hooks else { return Vec::new() };
        let mut all: Vec<ToolIdentity<'_>> = Selector::ALL
            .iter()
            .filter_map(|s| Some((*s, surface.selectors.get(s)?.supported().ok()?)))
            .flat_map(|(kind, mapping)| {
                mapping.matches.iter().map(move |pattern| ToolIdentity {
                    kind,
                    pattern,
                    input: mapping.input.get(pattern).expect("every alternative has its input map (a table test)"),
                })
            })
            .collect();
        all.sort_by_key(|identity| !is_plain_name(identity.pattern));
        all
    }

    /// The name prefixes this table knows for the host: the plain text before a trailing `.*` of a
    /// selector alternative (`mcp__` from `mcp__.*`, `MCP:` from `MCP:.*`).
    pub fn tool_name_prefixes(&self) -> Vec<&str> {
        let mut prefixes: Vec<&str> = Vec::new();
        let Some(surface) = &self.hooks else { return prefixes };
        for mapping in Selector::ALL.iter().filter_map(|s| surface.selectors.get(s)?.supported().ok()) {
            for prefix in mapping.matches.iter().filter_map(|m| m.strip_suffix(".*")) {
                if !prefix.is_empty() && is_plain_name(prefix) && !prefixes.contains(&prefix) {
                    prefixes.push(prefix);
                }
            }
        }
        prefixes
    }

    /// The host as a diagnostic names it.
    pub fn name(&self) -> crate::diagnostic::HostName<'_> {
        crate::diagnostic::HostName { target: self.target, host: &self.host, version: &self.host_version }
    }

    /// The host's mapping of a config event or a route family, or why it has none.
    pub fn mapping(&self, event: HookEvent) -> Result<&EventMapping, &str> {
        match event {
            HookEvent::Config(event) => self.event(event),
            HookEvent::Route(family) => self.family(family),
        }
    }

    /// The mapping of `event` in the host's hooks module, when a hook of that event may run there.
    pub fn module_mapping(&self, event: HookEvent) -> Option<&EventMapping> {
        let HookEvent::Config(event) = event else { return None };
        self.hooks.as_ref()?.hooks_module.as_ref()?.events.get(&event)
    }

    /// The mapping a delivered hook runs under: its event's in the hooks module, or its command's.
    pub fn mapping_for(&self, event: HookEvent, in_module: bool) -> Result<&EventMapping, &str> {
        match in_module {
            true => self.module_mapping(event).ok_or("the host's hooks module does not take this event"),
            false => self.mapping(event),
        }
    }

    /// What a wrapper of `event` on this host does with `part` of a result: the one place that
    /// combines the page's canonical rules (or a route family's), the host's own refusals and its
    /// channels, for config hooks and routes alike (D13). A legal part without a channel is dropped
    /// with a note when droppable (context, an explicit allow); a guard part (a denial, an ask, a
    /// rewrite) is never dropped: it blocks the call through the host's blocking exit where the
    /// event has one, and otherwise fails the hook.
    pub fn result_part(&self, event: impl Into<HookEvent>, part: ResultPart) -> PartSupport {
        self.result_part_in(event, false, part)
    }

    /// [`HostTable::result_part`] for a hook that runs in the host's hooks module (`in_module`) or as
    /// a command.
    pub fn result_part_in(&self, event: impl Into<HookEvent>, in_module: bool, part: ResultPart) -> PartSupport {
        let event = event.into();
        if let Some(rule) = event.refuses(part) {
            return PartSupport::Refuse(rule);
        }
        let Ok(mapping) = self.mapping_for(event, in_module) else {
            return PartSupport::Refuse(format!("{} does not receive {event}", self.host));
        };
        let result = &mapping.result;
        if let Some(reason) = result.refuses.get(&part) {
            return PartSupport::Refuse(reason.clone());
        }
        if result.has(part) {
            return PartSupport::Deliver;
        }
        let reason =
            result.missing.get(&part).cloned().unwrap_or_else(|| {
                format!("{} has no channel for {} on {}", self.host, part.described(), mapping.native)
            });
        match (&mapping.fail_closed, part.droppable()) {
            (_, true) => PartSupport::Drop(reason),
            (Some(blocking), false) => PartSupport::Block { reason, exit: blocking.exit },
            (None, false) => PartSupport::Refuse(reason),
        }
    }

    /// What a wrapper of a config hook on `event` does with the extra answer `extra` here: deliver
    /// it as the table says, drop it (the host has no channel for it there), or refuse it (the page's
    /// rule). A hooks module carries only its own answers.
    pub fn extra_in(&self, event: HookEvent, in_module: bool, extra: Extra) -> ExtraSupport {
        if let Some(rule) = event.refuses_extra(extra) {
            return ExtraSupport::Refuse(rule);
        }
        let Ok(mapping) = self.mapping_for(event, in_module) else {
            return ExtraSupport::Drop(format!("{} does not receive {event}", self.host));
        };
        if in_module {
            return ExtraSupport::Drop(format!(
                "{}'s hooks module carries a denial, new arguments or context only",
                self.host
            ));
        }
        let surface = self.hooks.as_ref().expect("a mapped event has hooks");
        match surface.answer_extras.get(&extra).map(Support::supported) {
            Some(Ok(how)) if how.events.is_empty() || how.events.contains(&mapping.native) => {
                ExtraSupport::Deliver(how.write.clone())
            }
            Some(Ok(_)) => ExtraSupport::Drop(format!(
                "{} takes {} on other events than {}",
                self.host,
                extra.name(),
                mapping.native
            )),
            Some(Err(reason)) => ExtraSupport::Drop(reason.to_string()),
            None => ExtraSupport::Drop(format!("{} has no {}", self.host, extra.name())),
        }
    }

    pub fn has_hooks(&self) -> bool {
        self.hooks.is_some()
    }

    /// The host whose plugin is built for this one: itself, or the host that serves it.
    pub fn built_as(&self) -> Target {
        self.served_by.unwrap_or(self.target)
    }

    fn no_hooks_reason(&self) -> &str {
        self.no_hooks_reason.as_deref().unwrap_or("this host has no hook surface")
    }
}

/// The programs agent-bundle builds plugins for, by their tables' names, each once (Claude Code's
/// hooks module is Claude Code; the portable form is a format, no program), in target order. Every
/// prose list of hosts is this list, or is checked against it.
pub fn products() -> Vec<&'static str> {
    let mut products: Vec<&'static str> = Vec::new();
    for target in Target::ALL.into_iter().filter(|t| *t != Target::Portable) {
        let name = table(target).host.as_str();
        if !products.contains(&name) {
            products.push(name);
        }
    }
    products
}

/// [`products`] as prose: `A, B and C`.
pub fn products_prose() -> String {
    match products().split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The hosts whose plugins are built for `targets`: each host with hooks, a served host as the host
/// that serves it (Kilo CLI as OpenCode), each once, in target order.
pub fn built_hosts(targets: &[Target]) -> Vec<Target> {
    let built: BTreeSet<Target> =
        targets.iter().map(|t| table(*t)).filter(|t| t.has_hooks()).map(HostTable::built_as).collect();
    built.into_iter().collect()
}

/// The table of one host.
pub fn table(target: Target) -> &'static HostTable {
    &tables()[target as usize]
}

/// Every host table, in [`Target::ALL`] order.
pub fn tables() -> &'static [HostTable; Target::ALL.len()] {
    static TABLES: OnceLock<[HostTable; Target::ALL.len()]> = OnceLock::new();
    TABLES.get_or_init(|| {
        TABLE_SOURCES.map(|(target, _)| {
            let table: HostTable = serde_json::from_value(table_value(target))
                .unwrap_or_else(|e| panic!("embedded host table for {target} is invalid: {e}"));
            assert_eq!(table.target, target, "host table file for {target} names another target");
            table
        })
    })
}

/// The key by which a table file takes another host's table as its base (Claude Code's hooks module
/// target runs its command hooks exactly as Claude Code does): the base's JSON, with the file's own
/// keys set over it at the top level and inside `hooks`; every other value the file gives replaces
/// the base's whole (a cell is never half the base's).
const EXTENDS: &str = "extends";

/// The embedded source of `target`'s table file.
fn table_source(target: Target) -> &'static str {
    TABLE_SOURCES.iter().find(|(t, _)| *t == target).map(|(_, source)| *source).expect("every target has a table")
}

/// The table of `target` as JSON, its base (if it names one) under it.
fn table_value(target: Target) -> serde_json::Value {
    let mut value: serde_json::Value = serde_json::from_str(table_source(target))
        .unwrap_or_else(|e| panic!("embedded host table for {target} is not JSON: {e}"));
    let Some(base) = value.as_object_mut().and_then(|o| o.remove(EXTENDS)) else { return value };
    let base: Target = serde_json::from_value(base).unwrap_or_else(|e| panic!("{target}'s `{EXTENDS}`: {e}"));
    let mut merged = table_value(base);
    let (serde_json::Value::Object(merged_keys), serde_json::Value::Object(own)) = (&mut merged, value) else {
        panic!("host tables are JSON objects");
    };
    for (key, value) in own {
        match (key.as_str(), merged_keys.get_mut(&key), value) {
            ("hooks", Some(serde_json::Value::Object(hooks)), serde_json::Value::Object(own_hooks)) => {
                hooks.extend(own_hooks);
            }
            (_, _, value) => {
                merged_keys.insert(key, value);
            }
        }
    }
    merged
}

/// The bytes a table's contract rests on: its file, after the file of the table it extends.
fn table_bytes(target: Target) -> Vec<u8> {
    let source = table_source(target);
    let value: serde_json::Value = serde_json::from_str(source).expect("checked when the tables load");
    let mut bytes = match value.get(EXTENDS).and_then(|b| serde_json::from_value::<Target>(b.clone()).ok()) {
        Some(base) => table_bytes(base),
        None => Vec::new(),
    };
    bytes.extend_from_slice(source.as_bytes());
    bytes
}

/// Every session source a host's sessionStart matcher knows, sorted.
pub fn session_sources() -> Vec<&'static str> {
    let mut sources: Vec<&str> = tables()
        .iter()
        .filter_map(|t| t.event(CanonicalEvent::SessionStart).ok())
        .filter_map(|m| m.source_matcher.as_ref()?.supported().ok())
        .flat_map(|m| m.values.iter().map(String::as_str))
        .collect();
    sources.sort_unstable();
    sources.dedup();
    sources
}

/// Whether a matcher alternative is a plain tool name: no regex syntax, so it matches only itself.
fn is_plain_name(alternative: &str) -> bool {
    !alternative.is_empty() && !alternative.contains(|c: char| "\\^$.|?*+()[]{}".contains(c))
}

/// A digest of one host table's bytes (with those of the table it extends), recorded in the artifact
/// manifest.
pub fn table_digest(target: Target) -> String {
    static DIGESTS: OnceLock<Vec<(Target, String)>> = OnceLock::new();
    let digests = DIGESTS.get_or_init(|| {
        TABLE_SOURCES.iter().map(|(t, _)| (*t, crate::vocabulary::digest::sha256_hex(&table_bytes(*t)))).collect()
    });
    digests.iter().find(|(t, _)| *t == target).map(|(_, digest)| digest.clone()).expect("every target has a table")
}

/// A digest of every host table's bytes: changes whenever any table does, so caches keyed on it
/// are invalidated by a re-pinned host.
pub fn tables_revision() -> String {
    static REVISION: OnceLock<String> = OnceLock::new();
    REVISION
        .get_or_init(|| {
            let mut hasher = crate::vocabulary::digest::Sha256Hex::new();
            for (target, source) in TABLE_SOURCES {
                hasher.update(target.name().as_bytes());
                hasher.update(&[0]);
                hasher.update(source.as_bytes());
                hasher.update(&[0]);
            }
            hasher.finish()
        })
        .clone()
}

/// Prose that lists the hosts outside the code (the crate's description, the README's opening, the
/// architecture's map of the tables) names every one.
#[cfg(test)]
mod prose {
    use super::*;

    fn names_every_product(what: &str, text: &str) {
        for product in products() {
            assert!(text.contains(product), "{what} does not name {product}: {text}");
        }
    }

    #[test]
    fn every_list_of_hosts_names_every_host() {
        assert_eq!(products().len(), 12, "{:?}", products());
        names_every_product("Cargo.toml's description", env!("CARGO_PKG_DESCRIPTION"));
        let readme = include_str!("../../README.md");
        let opening = readme.split("\n\n").nth(1).expect("the README opens with a paragraph");
        names_every_product("the README's opening paragraph", &opening.replace("**", ""));
        let architecture = include_str!("../../ARCHITECTURE.md");
        let map = architecture.lines().find(|l| l.starts_with("- `src/hosts/`")).expect("the code map has src/hosts/");
        for (target, _) in TABLE_SOURCES {
            assert!(
                map.contains(&format!("`{}.json`", target.name())),
                "ARCHITECTURE.md's map of src/hosts/ lacks {target}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_know_their_plain_tool_names_and_name_prefixes() {
        let claude = table(Target::Claude);
        assert_eq!(
            claude.tool_names(),
            ["Read", "Glob", "Grep", "Write", "Edit", "MultiEdit", "NotebookEdit", "Bash", "PowerShell"]
        );
        assert_eq!(claude.tool_name_prefixes(), ["mcp__"]);
        assert!(table(Target::Codex).tool_names().contains(&"web_search"));
        assert_eq!(table(Target::Cursor).tool_name_prefixes(), ["MCP:"]);
        assert!(table(Target::Copilot).tool_name_prefixes().is_empty());
        assert!(table(Target::Portable).tool_names().is_empty());
    }

    #[test]
    fn every_table_is_complete_and_every_gap_has_a_reason() {
        for table in tables() {
            match &table.hooks {
                None => assert!(table.no_hooks_reason.as_deref().is_some_and(|r| !r.trim().is_empty())),
                Some(surface) => {
                    // The Windows form agrees with how the host runs hooks, and says where it comes from.
                    assert_eq!(
                        surface.in_process(),
                        surface.windows.form == WindowsForm::InProcess,
                        "{}: commandShell and windows.form",
                        table.target
                    );
                    assert!(!surface.windows.evidence.trim().is_empty(), "{}", table.target);
                    if surface.in_process() {
                        // Its document names wrappers from its entry module's folder.
                        assert_eq!(surface.root_token, ".", "{}", table.target);
                        assert!(surface.entry_module.is_some(), "{}: an in-process host loads a module", table.target);
                    } else {
                        assert!(surface.root_token.starts_with("${") && surface.root_token.ends_with('}'));
                        assert!(surface.entry_module.is_none(), "{}: a command host loads no module", table.target);
                    }
                    for event in CanonicalEvent::ALL {
                        match surface.events.get(&event) {
                            Some(Support::Unsupported(u)) => assert!(!u.unsupported.trim().is_empty()),
                            Some(Support::Supported(m)) => assert!(!m.native.is_empty()),
                            None => panic!("{} table lacks event {event}", table.target),
                        }
                    }
                    for family in crate::vocabulary::family::FAMILIES {
                        match surface.families.get(family.name) {
                            Some(Support::Unsupported(u)) => assert!(!u.unsupported.trim().is_empty()),
                            Some(Support::Supported(m)) => assert!(!m.native.is_empty()),
                            None => panic!("{} table lacks family {family}", table.target),
                        }
                    }
                    assert_eq!(surface.families.len(), 22, "{} lists a family that does not exist", table.target);
                    for selector in Selector::ALL {
                        match surface.selectors.get(&selector) {
                            Some(Support::Unsupported(u)) => assert!(!u.unsupported.trim().is_empty()),
                            Some(Support::Supported(m)) => assert!(!m.matches.is_empty()),
                            None => panic!("{} table lacks selector {selector}", table.target),
                        }
                    }
                }
            }
        }
    }

    /// The tool input maps are the matchers' twin: one per alternative, none for anything else, each
    /// with the fields its kind needs, and every name pattern a regex with the groups it promises.
    #[test]
    fn every_selector_alternative_says_where_its_canonical_input_is() {
        for table in tables() {
            let Some(surface) = &table.hooks else { continue };
            for (selector, support) in &surface.selectors {
                let Ok(mapping) = support.supported() else { continue };
                let mut named: Vec<&String> = mapping.input.keys().collect();
                let mut matched: Vec<&String> = mapping.matches.iter().collect();
                named.sort();
                matched.sort();
                assert_eq!(named, matched, "{} {selector}: one input map per alternative", table.target);
                for (pattern, input) in &mapping.input {
                    let at = format!("{} {selector} {pattern}", table.target);
                    match selector {
                        Selector::Shell => assert!(input.command.is_some(), "{at}: a shell tool has a command"),
                        Selector::FileRead => {
                            assert!(
                                input.file_path.is_some() || input.file_list.is_some(),
                                "{at}: a read names its files"
                            )
                        }
                        Selector::FileWrite => assert!(
                            input.file_path.is_some() || input.patch.is_some(),
                            "{at}: a write names its file or carries a patch"
                        ),
                        Selector::Mcp => {
                            assert!(input.mcp_name.is_some(), "{at}: an MCP tool's name is split by a pattern");
                            let split = regex::Regex::new(input.mcp_name.as_deref().unwrap()).unwrap();
                            assert!(split.capture_names().flatten().all(|g| g == "server" || g == "tool"), "{at}");
                            assert!(split.capture_names().flatten().any(|g| g == "tool"), "{at}: names the tool");
                        }
                        Selector::Agent => assert_eq!(input, &ToolInputMap::default(), "{at}"),
                    }
                    for optional in &input.optional {
                        assert!(["filePath", "command"].contains(&optional.as_str()), "{at}: {optional}");
                    }
                }
            }
        }
    }

    #[test]
    fn qwen_codes_timeouts_are_seconds_below_a_thousand_and_milliseconds_from_there() {
        let unit = table(Target::Qwen).hooks.as_ref().unwrap().timeout_unit;
        assert_eq!(unit, TimeoutUnit::SecondsBelowAThousand);
        assert_eq!((unit.of(5), unit.show(unit.of(5))), (5, "5 s".to_string()));
        assert_eq!((unit.of(999), unit.show(unit.of(999))), (999, "999 s".to_string()));
        // 1000 s as 1000 would be read as one second.
        assert_eq!((unit.of(1000), unit.show(unit.of(1000))), (1_000_000, "1000000 ms".to_string()));
    }

    #[test]
    fn tables_carry_the_pinned_host_versions() {
        assert_eq!(table(Target::Claude).host_version, "2.1.332");
        assert_eq!(table(Target::Codex).host_version, "0.171.0");
        assert_eq!(table(Target::Cursor).host_version, "docs 2026-08");
        assert_eq!(table(Target::Copilot).host_version, "1.0.102");
        assert_eq!(table(Target::Gemini).host_version, "0.61.0");
        assert_eq!(table(Target::Qwen).host_version, "0.24.4");
        assert!(!table(Target::Portable).has_hooks());
    }

    #[test]
    fn route_family_support_matches_the_reference() {
        let supported = |target: Target| {
            crate::vocabulary::family::FAMILIES.iter().filter(|f| table(target).family(**f).is_ok()).count()
        };
        assert_eq!(supported(Target::Claude), 21, "all but workspace/open");
        assert_eq!(supported(Target::Codex), 11);
        assert_eq!(supported(Target::Cursor), 11);
        assert_eq!(
            supported(Target::Copilot),
            10,
            "the seven's six, session/end, prompt/submit, tool/failure, compact/before"
        );
        assert_eq!(supported(Target::Gemini), 7, "four of the seven's, session/end, prompt/submit, compact/before");
    }

    #[test]
    fn the_pages_selector_rules_hold() {
        // "Cursor maps all five; Claude Code has no `agent`; Codex has no `agent` and no `file.read`."
        for selector in Selector::ALL {
            assert!(table(Target::Cursor).selector(selector).is_ok(), "cursor {selector}");
        }
        assert!(table(Target::Claude).selector(Selector::Agent).is_err());
        assert!(table(Target::Codex).selector(Selector::Agent).is_err());
        assert!(table(Target::Codex).selector(Selector::FileRead).is_err());
        assert!(table(Target::Claude).selector(Selector::FileRead).is_ok());
    }
}
