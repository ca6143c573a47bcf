//! Where a host reads a plugin's skills, commands, agents and context file (a table's
//! `pluginParts`), and in which form.

use serde::{Deserialize, Serialize};

use super::{Proof, Support};
use crate::vocabulary::part::PartKind;

/// Each part, placed or why the host reads none.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PluginParts {
    pub skills: Support<PartPlace>,
    pub commands: Support<PartPlace>,
    pub agents: Support<PartPlace>,
    pub context_file: Support<PartPlace>,
}

impl PluginParts {
    pub fn get(&self, kind: PartKind) -> &Support<PartPlace> {
        match kind {
            PartKind::Skills => &self.skills,
            PartKind::Commands => &self.commands,
            PartKind::Agents => &self.agents,
            PartKind::ContextFile => &self.context_file,
        }
    }
}

/// Where and how a host reads one part.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PartPlace {
    /// The folder, relative to the host's plugin folder, the part's files go in (for the context
    /// file, the folder that holds it under its own name; `""`: the plugin folder itself).
    pub folder: String,
    /// The manifest key naming the place, for a host that reads it only when named, with its value:
    /// `{path}` stands for the place's path relative to the manifest's plugin folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest_pointer: Option<ManifestPointer>,
    /// How each file is written there.
    #[serde(default)]
    pub format: PartFormat,
    /// The name each command or agent file gets after its name (`.md`, `.toml`, `.agent.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
    /// The only front matter keys the host takes in a command's or agent's file (it refuses the file
    /// over any other): the rest are left out of the file written for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub front_matter_keys: Option<Vec<String>>,
    /// How a user invokes a command or names a skill or agent there: `{plugin}` and `{name}` replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoked_as: Option<String>,
    pub proof: Proof,
    pub evidence: String,
}

/// A manifest key that names where a part is.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManifestPointer {
    pub key: String,
    /// The value, `{path}` replaced (`./{path}/`, `{path}`).
    pub value: String,
}

impl ManifestPointer {
    pub fn value(&self, path: &str) -> String {
        self.value.replace("{path}", path)
    }
}

/// How a part's files are written for a host.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum PartFormat {
    /// As written (Markdown with front matter).
    #[default]
    Markdown,
    /// A command as Gemini CLI's TOML: `description` and `prompt`, `$ARGUMENTS` written `{{args}}`.
    GeminiToml,
}

#[cfg(test)]
mod tests {
    use crate::hosts;
    use crate::vocabulary::part::PartKind;

    /// Hosts that share a plugin folder (Claude Code, Codex, Copilot CLI and Cursor share the root)
    /// and read a part in the same folder read it in one form, so one copy serves them all.
    #[test]
    fn hosts_sharing_a_folder_read_each_part_there_in_one_form() {
        for kind in PartKind::ALL {
            let mut seen: std::collections::BTreeMap<String, (&str, &super::PartPlace)> = Default::default();
            for table in hosts::tables().iter().filter(|t| t.has_hooks()) {
                let surface = table.hooks.as_ref().unwrap();
                let Ok(place) = surface.plugin_parts.get(kind).supported() else { continue };
                let at = format!("{}/{}", surface.folder.as_deref().unwrap_or(""), place.folder);
                if let Some((other, first)) = seen.get(&at) {
                    assert_eq!(
                        (first.format, &first.suffix, &first.front_matter_keys),
                        (place.format, &place.suffix, &place.front_matter_keys),
                        "{kind} at `{at}`: {other} and {} differ",
                        table.target
                    );
                }
                seen.insert(at, (table.target.name(), place));
            }
        }
    }

    /// Every `manifestInterface` key has a type the build checks.
    #[test]
    fn every_interface_key_has_a_known_type() {
        for table in hosts::tables().iter().filter(|t| t.has_hooks()) {
            for (key, kind) in &table.hooks.as_ref().unwrap().manifest_interface {
                assert!(
                    ["string", "array", "stringOrArray", "asset", "assets"].contains(&kind.as_str()),
                    "{}: `{key}` is `{kind}`",
                    table.target
                );
            }
        }
    }

    /// A pointer names the place it points at, and only a context file sits in the folder itself.
    #[test]
    fn every_place_is_a_relative_path_and_every_pointer_names_it() {
        for table in hosts::tables().iter().filter(|t| t.has_hooks()) {
            let surface = table.hooks.as_ref().unwrap();
            for kind in PartKind::ALL {
                let Ok(place) = surface.plugin_parts.get(kind).supported() else { continue };
                assert!(!place.folder.starts_with('/') && !place.folder.contains(".."), "{}: {kind}", table.target);
                assert_eq!(place.folder.is_empty(), kind.is_file(), "{}: {kind}", table.target);
                if let Some(pointer) = &place.manifest_pointer {
                    assert!(pointer.value.contains("{path}"), "{}: {kind}", table.target);
                }
                assert!(!place.evidence.is_empty());
            }
        }
    }
}
