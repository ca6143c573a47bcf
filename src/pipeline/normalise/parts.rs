//! The plugin's skills, commands, agents and context file (`skills`, `commands`, `agents`,
//! `contextFile`): each declaration judged into a [`Part`] (a source inside the bundle root, of the
//! right kind, declared once, for known hosts). What the files hold is judged when emit reads them.

use serde::Serialize;

use super::Normaliser;
use crate::diagnostic::messages;
use crate::io::lexical_join;
use crate::pipeline::config::PartDeclaration;
use crate::vocabulary::part::PartKind;
use crate::vocabulary::source::Location;
use crate::vocabulary::target::Target;

/// One declared part, judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Part {
    pub kind: PartKind,
    /// The root-relative source: a folder, or for the context file a file.
    pub source: String,
    /// The hosts it is declared for (the config's targets unless it names its own).
    pub targets: Vec<Target>,
    #[serde(skip)]
    pub declared_at: Location,
}

impl Normaliser<'_> {
    /// Judges the declared parts; `selected` is the config's targets.
    pub(super) fn parts(&mut self, declarations: &[PartDeclaration], selected: &[Target]) -> Vec<Part> {
        let mut parts: Vec<Part> = Vec::new();
        for declaration in declarations {
            let source = &declaration.source;
            let targets = match &declaration.targets {
                Some(targets) => self.known_targets(&targets.value, messages::unknown_target),
                None => selected.to_vec(),
            };
            let absolute = lexical_join(self.root, &source.value);
            let inside = self.inside_root(&absolute).filter(|relative| !relative.is_empty());
            let kind = declaration.kind;
            let fits = if kind.is_file() {
                self.disk.is_file(&absolute) && absolute.extension() == Some("md")
            } else {
                self.disk.is_dir(&absolute)
            };
            let outside = inside.is_none();
            let Some(relative) = inside.filter(|_| fits) else {
                let why = if outside {
                    "it lies outside the bundle root"
                } else if kind.is_file() && self.disk.is_file(&absolute) {
                    "it is not a Markdown file (`.md`)"
                } else if kind.is_file() {
                    "no such file"
                } else {
                    "no such folder"
                };
                self.diagnostics.push(messages::part_source(kind, &source.value, why, &source.at));
                continue;
            };
            if parts.iter().any(|p| p.kind == kind) {
                // An object literal keeps its last value of a key; the extract stage reports the repeat.
                parts.retain(|p| p.kind != kind);
            }
            parts.push(Part { kind, source: relative, targets, declared_at: declaration.at.clone() });
        }
        parts.sort_by_key(|p| p.kind);
        parts
    }
}
