//! The artifact's files as emit assembles them, each with what produced it. Nothing is overwritten:
//! two producers writing one path, a file where another producer needs a folder, and a payload
//! writing into a path the layout gives a host, the shared runtime or agent-bundle are each an error
//! naming both sides (D14).

use std::collections::BTreeMap;

use crate::artifact::ArtifactFile;
use crate::diagnostic::{Diagnostic, messages};
use crate::hosts::layout::{self, Role};
use crate::vocabulary::target::Target;

/// What writes a file of the artifact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Producer {
    /// One of a host's documents: its hook document, plugin manifest or MCP document.
    HostFile {
        target: Target,
        role: Role,
    },
    /// The runtime every wrapper imports (and its copy in a host's own folder).
    Runtime,
    /// The shared runtime's MCP server and entry.
    SharedServer,
    /// A host's hooks module and agent-bundle's helpers beside it.
    HooksModule {
        target: Target,
    },
    /// `agent-bundle.manifest.json`.
    Manifest,
    Wrapper {
        hook: String,
        target: Target,
    },
    /// A handler's bundle and source map (and their copies in a host's own folder).
    Bundle {
        handler: String,
    },
    /// A chunk several handlers' bundles share, and its map (and their copies).
    SharedChunk,
    /// The packages shipped whole (`bundle.external`) and their `.gitignore`.
    Shipped,
    Payload {
        name: String,
    },
    /// The plugin's skills, commands, agents or context file.
    Part {
        kind: crate::vocabulary::part::PartKind,
    },
    /// The bundle's README, license file or icon.
    PluginFile {
        source: String,
    },
}

impl std::fmt::Display for Producer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Producer::HostFile { target, role } => {
                write!(f, "{}'s {}", layout::Owner::Host(*target), role.described())
            }
            Producer::Runtime => f.write_str("agent-bundle's hook runtime"),
            Producer::SharedServer => f.write_str("the shared runtime's MCP server"),
            Producer::HooksModule { target } => write!(f, "{}'s hooks module", layout::Owner::Host(*target)),
            Producer::Manifest => f.write_str("agent-bundle's artifact manifest"),
            Producer::Wrapper { hook, target } => write!(f, "the {target} wrapper of hook `{hook}`"),
            Producer::Bundle { handler } => write!(f, "the bundle of handler `{handler}`"),
            Producer::SharedChunk => f.write_str("a chunk the handlers' bundles share"),
            Producer::Shipped => f.write_str("the packages shipped whole (`bundle.external`)"),
            Producer::Payload { name } => write!(f, "payload `{name}`"),
            Producer::Part { kind } => write!(f, "the plugin's `{kind}`"),
            Producer::PluginFile { source } => write!(f, "the plugin file `{source}`"),
        }
    }
}

/// The files so far, by artifact path, with their producers and the collisions found.
#[derive(Debug, Default)]
pub struct Assembly {
    files: BTreeMap<String, (ArtifactFile, Producer)>,
    diagnostics: Vec<Diagnostic>,
}

impl Assembly {
    /// Adds a file. The same producer may add the same bytes again (a bundle every hook of its
    /// handler copies); anything else at a taken path is a collision, and the first file stays.
    pub fn add(&mut self, path: String, file: ArtifactFile, producer: Producer) {
        match self.files.get(&path) {
            None => {
                self.files.insert(path, (file, producer));
            }
            Some((existing, first)) if *first == producer && *existing == file => {}
            Some((_, first)) => {
                let (first, second) = (first.to_string(), producer.to_string());
                self.diagnostics.push(messages::artifact_path_collision(&path, &first, &second));
            }
        }
    }

    /// Checks that a payload's destination folder takes nothing the layout gives someone else
    /// (normalising refuses such names; this holds the line for whatever reaches emit).
    pub fn check_payload_folder(&mut self, folder: &str, payload: &str) {
        for claim in layout::layout().claims_over(folder) {
            let owner = format!("{}'s {}", claim.owner, claim.role.described());
            let payload = Producer::Payload { name: payload.to_string() }.to_string();
            self.diagnostics.push(messages::artifact_path_collision(&claim.shown(), &owner, &payload));
        }
    }

    /// Every file so far with its producer, by path.
    pub fn entries(&self) -> impl Iterator<Item = (&String, &ArtifactFile, &Producer)> {
        self.files.iter().map(|(path, (file, producer))| (path, file, producer))
    }

    /// The files, or the collisions found, a file standing where another path needs a folder among
    /// them.
    pub fn finish(mut self) -> Result<BTreeMap<String, ArtifactFile>, Vec<Diagnostic>> {
        for (path, (_, producer)) in &self.files {
            let mut folder = path.as_str();
            while let Some((parent, _)) = folder.rsplit_once('/') {
                folder = parent;
                if let Some((_, owner)) = self.files.get(folder) {
                    let (owner, inner) = (owner.to_string(), producer.to_string());
                    self.diagnostics.push(messages::artifact_path_blocked(folder, &owner, path, &inner));
                }
            }
        }
        if self.diagnostics.is_empty() {
            Ok(self.files.into_iter().map(|(path, (file, _))| (path, file)).collect())
        } else {
            Err(self.diagnostics)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> ArtifactFile {
        ArtifactFile::new(text.as_bytes().to_vec())
    }

    #[test]
    fn the_same_producer_may_repeat_itself_and_nobody_else_may() {
        let mut assembly = Assembly::default();
        let bundle = || Producer::Bundle { handler: "src/a.ts".into() };
        assembly.add("hooks/handlers/src/a.mjs".into(), file("a"), bundle());
        assembly.add("hooks/handlers/src/a.mjs".into(), file("a"), bundle());
        assert_eq!(assembly.entries().count(), 1);
        let document = Producer::HostFile { target: Target::Claude, role: Role::HookDocument };
        assembly.add("hooks/hooks.json".into(), file("{}"), document);
        assembly.add("hooks/hooks.json".into(), file("{}"), Producer::Payload { name: "hooks".into() });
        let diagnostics = assembly.finish().unwrap_err();
        assert_eq!(diagnostics.len(), 1);
        assert!(diagnostics[0].message.contains("Claude Code's hook document"), "{}", diagnostics[0].message);
        assert!(diagnostics[0].message.contains("payload `hooks`"), "{}", diagnostics[0].message);
        assert!(diagnostics[0].message.contains("`hooks/hooks.json`"), "{}", diagnostics[0].message);
    }

    #[test]
    fn a_file_where_another_needs_a_folder_is_a_collision() {
        let mut assembly = Assembly::default();
        assembly.add("README.md".into(), file("# p"), Producer::PluginFile { source: "README.md".into() });
        assembly.add("README.md/a.txt".into(), file("a"), Producer::Payload { name: "README.md".into() });
        let diagnostics = assembly.finish().unwrap_err();
        assert_eq!(diagnostics.len(), 1);
        let message = &diagnostics[0].message;
        assert!(
            message.contains("the plugin file `README.md`") && message.contains("payload `README.md`"),
            "{message}"
        );
    }

    /// Every path the layout gives a host, the shared runtime or agent-bundle, at the root and in each
    /// host's own folder: a payload folder there is refused, naming the owner. Read from the layout,
    /// so a new host is covered by itself.
    #[test]
    fn a_payload_folder_on_any_claimed_path_is_a_collision() {
        let layout = layout::layout();
        let folders: Vec<&str> = layout.host_folders().map(|(_, folder)| folder).collect();
        for claim in layout.claims() {
            let mut assembly = Assembly::default();
            assembly.check_payload_folder(&claim.path, "p");
            let diagnostics = assembly.finish().unwrap_err();
            let named =
                |d: &Diagnostic| d.message.contains(&claim.owner.to_string()) && d.message.contains("payload `p`");
            assert!(diagnostics.iter().any(named), "{}: {diagnostics:?}", claim.path);
            // Its first segment, taken as a payload name at the root or inside a host folder.
            let relative =
                folders.iter().find_map(|f| claim.path.strip_prefix(&format!("{f}/"))).unwrap_or(&claim.path);
            let name = relative.split('/').next().unwrap();
            assert!(!layout.claims_on_name(name).is_empty(), "{name} ({}) is not reserved", claim.path);
        }
        let mut assembly = Assembly::default();
        assembly.check_payload_folder("scripts", "scripts");
        for folder in &folders {
            assembly.check_payload_folder(&format!("{folder}/scripts"), "scripts");
        }
        assert!(assembly.finish().is_ok());
    }
}
