//! The plugin's parts besides hooks and MCP servers that hosts load from a plugin folder: skills,
//! commands, agents and a context file. The config names each by the key it is written with; each
//! host's table says where it reads each one, or why it reads none.

use serde::{Deserialize, Serialize};

/// One kind of plugin part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PartKind {
    /// A folder of skills: `<name>/SKILL.md` (with `name` and `description` in its front matter) and
    /// whatever files the skill names beside it.
    Skills,
    /// A folder of commands: `<name>.md`, the prompt a `/name` command sends (`$ARGUMENTS` standing
    /// for what follows the command), with an optional `description` in its front matter.
    Commands,
    /// A folder of agents (subagents): `<name>.md`, the agent's instructions, with `name` and
    /// `description` in its front matter.
    Agents,
    /// One Markdown file the host adds to the model's context in every session of the plugin.
    ContextFile,
}

impl PartKind {
    pub const ALL: [PartKind; 4] = [PartKind::Skills, PartKind::Commands, PartKind::Agents, PartKind::ContextFile];

    /// The config key it is declared with.
    pub fn key(self) -> &'static str {
        match self {
            PartKind::Skills => "skills",
            PartKind::Commands => "commands",
            PartKind::Agents => "agents",
            PartKind::ContextFile => "contextFile",
        }
    }

    pub fn from_key(key: &str) -> Option<PartKind> {
        PartKind::ALL.into_iter().find(|kind| kind.key() == key)
    }

    /// Whether the source is one file (the context file) rather than a folder.
    pub fn is_file(self) -> bool {
        self == PartKind::ContextFile
    }
}

impl std::fmt::Display for PartKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}
