//! The canonical vocabulary a plugin author writes: the seven hook events and the five tool
//! selectors. Hosts translate them through their tables.

use serde::{Deserialize, Serialize};

/// What a hook does on a host that lacks one of its tool selectors (`onMissingSelector`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MissingSelector {
    /// The build fails (AB4230): the default, so that no host is left out unsaid.
    #[default]
    Error,
    /// The hook is not delivered to that host (listed by `inspect` and the build summary).
    SkipHost,
    /// The host gets the hook with the selectors it has (`['shell', 'file.read']` on Codex, which
    /// reads through its shell: the shell part); a host that has none of them is skipped.
    SkipSelector,
}

impl MissingSelector {
    pub const NAMES: [&'static str; 3] = ["error", "skip-host", "skip-selector"];

    pub fn from_name(name: &str) -> Option<MissingSelector> {
        match name {
            "error" => Some(MissingSelector::Error),
            "skip-host" => Some(MissingSelector::SkipHost),
            "skip-selector" => Some(MissingSelector::SkipSelector),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MissingSelector::Error => "error",
            MissingSelector::SkipHost => "skip-host",
            MissingSelector::SkipSelector => "skip-selector",
        }
    }
}

/// Payload fields kept under an old name for one release, as (old name, canonical name): a config
/// handler gets both, the types mark the old one deprecated, and `hooks simulate` reads the old one
/// as the canonical one with a warning. `reentry` is the one name of "the agent was already sent back
/// once" (routes always had it; config hooks had `stopHookActive`, Claude Code's own key).
pub const PAYLOAD_ALIASES: &[(&str, &str)] = &[("stopHookActive", "reentry")];

/// Config file names, in the order they are looked for.
pub const CONFIG_FILE_NAMES: &[&str] =
    &["agent-bundle.config.ts", "agent-bundle.config.mts", "agent-bundle.config.js", "agent-bundle.config.mjs"];

/// Extensions a handler module may have.
pub const HANDLER_EXTENSIONS: &[&str] = &["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"];

/// The bounds of a hook's or route's `maxInputBytes` (D13): at least a small envelope, at most what
/// one V8 string holds with room to spare (about 512 Mi characters).
pub const MAX_INPUT_BYTES_RANGE: (u64, u64) = (1024, 256 * 1024 * 1024);

/// The longest `timeout` a hook may declare, in seconds: 2^31 - 1 milliseconds, floored to whole
/// seconds. Node's timers (the wrapper's deadline, and the hosts that run on Node and count a hook's
/// timeout in milliseconds) hold no more: a longer delay fires after 1 ms, so such a hook would fail
/// on every call.
pub const MAX_TIMEOUT_SECONDS: u32 = 2_147_483;

/// The stdin limit of a hook that sets none, which the plan applies (D13). Chosen from the measured
/// parse cost (`cargo bench --bench envelopes`): a 64 MiB envelope costs the wrapper a few hundred
/// milliseconds, once, while real tool inputs (whole-file writes, patches) stay far below it.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// The most hooks (config entries and event routes together) one bundle may declare. Real plugins
/// declare tens; a host runs every matching hook on every tool call, so thousands are a generated
/// config gone wrong. A build of this many hooks takes seconds (time grows linearly in hooks:
/// `cargo bench --bench scale`), and more are refused before any is planned.
pub const MAX_HOOKS_PER_BUNDLE: usize = 4096;

/// A config-declared hook event, in the fixed order the original iterates them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CanonicalEvent {
    #[serde(rename = "sessionStart")]
    SessionStart,
    #[serde(rename = "beforeTool")]
    BeforeTool,
    #[serde(rename = "afterTool")]
    AfterTool,
    #[serde(rename = "stop")]
    Stop,
    #[serde(rename = "agentStart")]
    AgentStart,
    #[serde(rename = "agentStop")]
    AgentStop,
    #[serde(rename = "workspaceOpen")]
    WorkspaceOpen,
}

impl CanonicalEvent {
    pub const ALL: [CanonicalEvent; 7] = [
        CanonicalEvent::SessionStart,
        CanonicalEvent::BeforeTool,
        CanonicalEvent::AfterTool,
        CanonicalEvent::Stop,
        CanonicalEvent::AgentStart,
        CanonicalEvent::AgentStop,
        CanonicalEvent::WorkspaceOpen,
    ];

    /// The camelCase key used in the config and in the identity hash.
    pub fn name(self) -> &'static str {
        match self {
            CanonicalEvent::SessionStart => "sessionStart",
            CanonicalEvent::BeforeTool => "beforeTool",
            CanonicalEvent::AfterTool => "afterTool",
            CanonicalEvent::Stop => "stop",
            CanonicalEvent::AgentStart => "agentStart",
            CanonicalEvent::AgentStop => "agentStop",
            CanonicalEvent::WorkspaceOpen => "workspaceOpen",
        }
    }

    /// The kebab-case form used in hook names (`sessionStart` → `session-start`).
    pub fn kebab(self) -> String {
        let mut out = String::new();
        for c in self.name().chars() {
            if c.is_ascii_uppercase() {
                out.push('-');
                out.push(c.to_ascii_lowercase());
            } else {
                out.push(c);
            }
        }
        out
    }

    pub fn from_name(name: &str) -> Option<CanonicalEvent> {
        CanonicalEvent::ALL.into_iter().find(|e| e.name() == name)
    }

    /// Only tool events accept a `tools` filter.
    pub fn accepts_tools(self) -> bool {
        matches!(self, CanonicalEvent::BeforeTool | CanonicalEvent::AfterTool)
    }
}

impl std::fmt::Display for CanonicalEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A part of a handler's result that a host may or may not be able to deliver. The outcomes other
/// than `continue` are parts too: each is a separate choice of the handler with its own channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ResultPart {
    #[serde(rename = "deny")]
    Deny,
    #[serde(rename = "allow")]
    Allow,
    #[serde(rename = "ask")]
    Ask,
    #[serde(rename = "additionalContext")]
    AdditionalContext,
    #[serde(rename = "updatedInput")]
    UpdatedInput,
}

impl ResultPart {
    pub const ALL: [ResultPart; 5] =
        [ResultPart::Deny, ResultPart::Allow, ResultPart::Ask, ResultPart::AdditionalContext, ResultPart::UpdatedInput];

    /// The key or outcome as a handler writes it.
    pub fn name(self) -> &'static str {
        match self {
            ResultPart::Deny => "deny",
            ResultPart::Allow => "allow",
            ResultPart::Ask => "ask",
            ResultPart::AdditionalContext => "additionalContext",
            ResultPart::UpdatedInput => "updatedInput",
        }
    }

    /// The short word the matrix and capability rows (`events.toolBefore.rewrite`) use.
    pub fn short(self) -> &'static str {
        match self {
            ResultPart::AdditionalContext => "context",
            ResultPart::UpdatedInput => "rewrite",
            other => other.name(),
        }
    }

    /// How a message names the part (`a denial`, `additionalContext`).
    pub fn described(self) -> &'static str {
        match self {
            ResultPart::Deny => "a denial",
            ResultPart::Allow => "an explicit allow",
            ResultPart::Ask => "an ask",
            ResultPart::AdditionalContext => "additionalContext",
            ResultPart::UpdatedInput => "updatedInput",
        }
    }

    /// Whether a host without a channel for this part drops it (with a note) rather than failing the
    /// hook. A denial is never dropped, and neither is an ask: both exist to stop a tool call, and a
    /// host that cannot carry them must not see the call pass silently (D6 in docs/decisions.md).
    pub fn droppable(self) -> bool {
        matches!(self, ResultPart::Allow | ResultPart::AdditionalContext)
    }
}

impl std::fmt::Display for ResultPart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl CanonicalEvent {
    /// The page's per-event rule that makes `part` illegal on this event, on every host; `None` when
    /// the event admits it ("sessionStart, afterTool, and agentStart cannot deny, stop, or replace
    /// input"; "stop accepts only continue, or deny with a reason"; allow and ask are permission
    /// decisions, so only beforeTool has them; workspaceOpen only observes).
    pub fn refuses(self, part: ResultPart) -> Option<&'static str> {
        use CanonicalEvent as E;
        use ResultPart as P;
        match (self, part) {
            (E::BeforeTool, _) => None,
            (E::WorkspaceOpen, _) => Some("workspaceOpen only observes: return nothing or \"continue\""),
            (_, P::Allow | P::Ask) => Some("only beforeTool makes permission decisions (allow, ask)"),
            (E::SessionStart | E::AfterTool | E::AgentStart, P::Deny) => {
                Some("sessionStart, afterTool and agentStart cannot deny")
            }
            (E::SessionStart | E::AfterTool | E::AgentStart | E::Stop | E::AgentStop, P::UpdatedInput) => {
                Some("only beforeTool can replace input (updatedInput)")
            }
            (E::Stop, P::AdditionalContext) => Some("stop accepts only continue, or deny with a reason"),
            _ => None,
        }
    }
}

/// An answer beyond the canonical parts that some hosts take, as a result's `extra` names it: a
/// line shown to the user, and variables for the rest of the session. Each host table says which it
/// takes, on which events and how; elsewhere it is dropped with a note.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Extra {
    /// `systemMessage`: a line the host shows the user (not the model).
    #[serde(rename = "systemMessage")]
    SystemMessage,
    /// `env`: variables (name to value) for the rest of the session.
    #[serde(rename = "env")]
    Env,
}

impl Extra {
    pub const ALL: [Extra; 2] = [Extra::SystemMessage, Extra::Env];

    pub fn name(self) -> &'static str {
        match self {
            Extra::SystemMessage => "systemMessage",
            Extra::Env => "env",
        }
    }

    /// What it is, for the matrix and notes.
    pub fn described(self) -> &'static str {
        match self {
            Extra::SystemMessage => "a line shown to the user",
            Extra::Env => "variables for the rest of the session",
        }
    }

    /// The page's rule when `event` may not carry it at all.
    pub fn refuses(self, event: CanonicalEvent) -> Option<&'static str> {
        match (self, event) {
            (Extra::Env, CanonicalEvent::SessionStart) | (Extra::SystemMessage, _) => None,
            (Extra::Env, _) => Some("env sets variables for the session, so only sessionStart returns it"),
        }
    }
}

/// The longest `statusMessage` an entry may carry, in characters: a line a host shows while the
/// hook runs.
pub const MAX_STATUS_MESSAGE_CHARS: usize = 200;

/// A canonical tool selector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Selector {
    #[serde(rename = "agent")]
    Agent,
    #[serde(rename = "file.read")]
    FileRead,
    #[serde(rename = "file.write")]
    FileWrite,
    #[serde(rename = "mcp")]
    Mcp,
    #[serde(rename = "shell")]
    Shell,
}

impl Selector {
    /// In the order their names sort, which is the order the identity hash and matchers use.
    pub const ALL: [Selector; 5] =
        [Selector::Agent, Selector::FileRead, Selector::FileWrite, Selector::Mcp, Selector::Shell];

    pub fn name(self) -> &'static str {
        match self {
            Selector::Agent => "agent",
            Selector::FileRead => "file.read",
            Selector::FileWrite => "file.write",
            Selector::Mcp => "mcp",
            Selector::Shell => "shell",
        }
    }

    pub fn from_name(name: &str) -> Option<Selector> {
        Selector::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl std::fmt::Display for Selector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_names_match_the_original() {
        let kebab: Vec<_> = CanonicalEvent::ALL.iter().map(|e| e.kebab()).collect();
        assert_eq!(
            kebab,
            ["session-start", "before-tool", "after-tool", "stop", "agent-start", "agent-stop", "workspace-open"]
        );
    }

    #[test]
    fn selector_order_is_name_order() {
        let mut names: Vec<_> = Selector::ALL.iter().map(|s| s.name()).collect();
        let sorted = {
            let mut n = names.clone();
            n.sort();
            n
        };
        assert_eq!(names, sorted);
        names.dedup();
        assert_eq!(names.len(), 5);
    }
}
