//! The hosts agent-bundle can target. What each host can do lives in its host table
//! ([`crate::hosts`]); this enum only names them.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    Amp,
    Claude,
    /// Claude Code with its hooks module (mods, opt-in): tool hooks whose bundle can run in the
    /// module's environment run in-process there, the rest as Claude Code's command hooks. Another
    /// form of `Claude`'s plugin, at its place: a bundle targets one of the two.
    #[serde(rename = "claude-mod")]
    ClaudeMod,
    Cline,
    Codex,
    Copilot,
    Cursor,
    Droid,
    Gemini,
    Kilo,
    Opencode,
    Pi,
    Portable,
    Qwen,
}

impl Target {
    /// Every target, in the order names sort (`amp`, `claude`, `claude-mod`, `cline`, `codex`, `copilot`, `cursor`, `droid`, `gemini`,
    /// `kilo`, `opencode`, `pi`, `portable`, `qwen`).
    pub const ALL: [Target; 14] = [
        Target::Amp,
        Target::Claude,
        Target::ClaudeMod,
        Target::Cline,
        Target::Codex,
        Target::Copilot,
        Target::Cursor,
        Target::Droid,
        Target::Gemini,
        Target::Kilo,
        Target::Opencode,
        Target::Pi,
        Target::Portable,
        Target::Qwen,
    ];

    /// Selected when neither the config nor the command line names targets (D3 in docs/decisions.md): the
    /// original's registry default, so hook names agree with it.
    pub const DEFAULT_SELECTION: [Target; 2] = [Target::Claude, Target::Codex];

    pub fn name(self) -> &'static str {
        match self {
            Target::Amp => "amp",
            Target::Claude => "claude",
            Target::ClaudeMod => "claude-mod",
            Target::Cline => "cline",
            Target::Codex => "codex",
            Target::Copilot => "copilot",
            Target::Cursor => "cursor",
            Target::Droid => "droid",
            Target::Gemini => "gemini",
            Target::Kilo => "kilo",
            Target::Opencode => "opencode",
            Target::Pi => "pi",
            Target::Portable => "portable",
            Target::Qwen => "qwen",
        }
    }

    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    pub fn names() -> impl Iterator<Item = &'static str> {
        Target::ALL.into_iter().map(Target::name)
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

impl std::str::FromStr for Target {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Target::from_name(s).ok_or_else(|| {
            format!("unknown target `{s}`; expected one of: {}", Target::names().collect::<Vec<_>>().join(", "))
        })
    }
}
