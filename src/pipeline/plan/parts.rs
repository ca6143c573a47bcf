//! Planning the plugin's skills, commands, agents and context file per host: the artifact folder
//! each host reads them from, the form their files take there and the manifest key that names it,
//! or why a host gets none. Emit writes what this decides.

use serde::Serialize;

use crate::diagnostic::{Diagnostic, HostName, messages};
use crate::hosts::{self, parts::PartFormat};
use crate::pipeline::normalise::parts::Part;
use crate::vocabulary::part::PartKind;
use crate::vocabulary::target::Target;

/// What one host gets of a part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "delivery", rename_all = "lowercase")]
pub enum PartDelivery {
    Placed {
        /// The artifact folder the files go in (the context file: the folder holding it).
        folder: String,
        format: PartFormat,
        /// The name a command or agent file gets after its own name.
        #[serde(skip_serializing_if = "Option::is_none")]
        suffix: Option<String>,
        /// The manifest key naming the place and its value, for a host that reads it only when named.
        #[serde(skip_serializing_if = "Option::is_none")]
        pointer: Option<(String, String)>,
        /// The only front matter keys the host takes in a file, where it refuses others.
        #[serde(rename = "frontMatterKeys", skip_serializing_if = "Option::is_none")]
        front_matter_keys: Option<Vec<String>>,
        /// How a user invokes or names an item there (`{name}` standing for its name).
        #[serde(rename = "invokedAs", skip_serializing_if = "Option::is_none")]
        invoked_as: Option<String>,
    },
    /// The host gets none, and why.
    Absent { reason: String },
}

/// One part and what each of its hosts gets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartPlan {
    pub kind: PartKind,
    pub targets: Vec<PartTarget>,
}

/// What one host gets of a part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartTarget {
    pub target: Target,
    #[serde(flatten)]
    pub delivery: PartDelivery,
}

/// The artifact path of `path` within `target`'s plugin folder.
fn in_host_folder(target: Target, path: &str) -> String {
    let folder = hosts::table(target).hooks.as_ref().and_then(|surface| surface.folder.clone());
    match (folder, path) {
        (Some(folder), "") => folder,
        (Some(folder), path) => format!("{folder}/{path}"),
        (None, path) => path.to_string(),
    }
}

/// Plans every part for each of its hosts; a host that reads no such part gets the reason, and the
/// build a warning (AB4774).
pub fn plan_parts(parts: &[Part], plugin: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<PartPlan> {
    let mut plans = Vec::new();
    for part in parts {
        let mut targets = Vec::new();
        let mut unplaced: Vec<(HostName<'static>, String)> = Vec::new();
        for &target in &part.targets {
            let table = hosts::table(target);
            let Some(surface) = &table.hooks else { continue };
            let delivery = match surface.plugin_parts.get(part.kind).supported() {
                Err(reason) => PartDelivery::Absent { reason: reason.to_string() },
                Ok(place) => {
                    let folder = in_host_folder(target, &place.folder);
                    let pointer = place.manifest_pointer.as_ref().map(|pointer| {
                        let path = if part.kind.is_file() {
                            let name = part.source.rsplit('/').next().unwrap_or(&part.source);
                            if place.folder.is_empty() { name.to_string() } else { format!("{}/{name}", place.folder) }
                        } else {
                            place.folder.clone()
                        };
                        (pointer.key.clone(), pointer.value(&path))
                    });
                    PartDelivery::Placed {
                        folder,
                        format: place.format,
                        suffix: place.suffix.clone(),
                        pointer,
                        front_matter_keys: place.front_matter_keys.clone(),
                        invoked_as: place.invoked_as.as_ref().map(|form| form.replace("{plugin}", plugin)),
                    }
                }
            };
            if let PartDelivery::Absent { reason } = &delivery {
                unplaced.push((table.name(), reason.clone()));
            }
            targets.push(PartTarget { target, delivery });
        }
        if !unplaced.is_empty() {
            diagnostics.push(messages::part_unplaced(part.kind, &unplaced, &part.declared_at));
        }
        plans.push(PartPlan { kind: part.kind, targets });
    }
    plans
}
