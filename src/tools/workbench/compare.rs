//! The current build against the golden snapshots: a hook's last saved recorded input, answered by
//! today's wrappers on each host, compared with the answer its golden snapshot holds — the same
//! section, rendered by the same code, that `cargo agent-bundle snapshot --check` compares.

use camino::{Utf8Path, Utf8PathBuf};
use serde_json::{Value, json};

use crate::artifact::read_verified;
use crate::io::{Disk, RealDisk};
use crate::tools::simulate::IsolatedArtifact;
use crate::tools::snapshot::{self, SNAPSHOT_EXTENSION};
use crate::vocabulary::target::Target;

pub struct Compare<'a> {
    pub snapshot_dir: &'a Utf8Path,
    pub artifact: &'a Utf8Path,
    pub root: &'a Utf8Path,
}

/// The newest recorded input `snapshot` would replay for `hook` (of `event`): its case name (as the
/// snapshot names it) and file.
fn last_saved(inputs_dir: &Utf8Path, hook: &str, event: &str) -> Option<(String, Utf8PathBuf)> {
    let mut newest: Option<(std::time::SystemTime, String, Utf8PathBuf)> = None;
    for folder in [hook, event] {
        let dir = inputs_dir.join(folder);
        for name in RealDisk.list_dir(&dir).unwrap_or_default() {
            let Some(case) = name.strip_suffix(".json") else { continue };
            let path = dir.join(&name);
            let Ok(modified) = std::fs::metadata(&path).and_then(|m| m.modified()) else { continue };
            let case = format!("{folder}/{case}");
            if newest.as_ref().is_none_or(|(time, name, _)| (modified, &case) > (*time, name)) {
                newest = Some((modified, case, path));
            }
        }
    }
    newest.map(|(_, case, path)| (case, path))
}

impl Compare<'_> {
    pub fn run(&self, hook: &str, only: Option<Target>) -> Result<Value, String> {
        let manifest = read_verified(self.artifact, &RealDisk).map_err(|e| e.to_string())?;
        let rows: Vec<_> =
            manifest.hooks.iter().filter(|r| r.name == hook && only.is_none_or(|t| r.host == t)).collect();
        let first = rows.first().ok_or_else(|| format!("the artifact has no hook named `{hook}`"))?;
        let plugin_dir = self.snapshot_dir.join(&manifest.plugin.name);
        let inputs_dir = plugin_dir.join("inputs");
        let (case, saved) = last_saved(&inputs_dir, hook, first.event.name()).ok_or_else(|| {
            format!(
                "no recorded input for `{hook}` under `{inputs_dir}` yet: save one (\"Save as recorded input\"), then run `cargo agent-bundle snapshot` and accept it"
            )
        })?;
        let input: Value = std::fs::read_to_string(&saved)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .ok_or_else(|| format!("`{saved}` is not a JSON file"))?;
        let isolated = IsolatedArtifact::copy(self.artifact, &manifest).map_err(|e| e.to_string())?;
        let canonical_artifact = RealDisk.canonicalize(self.artifact).unwrap_or_else(|| self.artifact.to_path_buf());
        let canonical_root = RealDisk.canonicalize(self.root).unwrap_or_else(|| self.root.to_path_buf());
        let mut hosts = Vec::new();
        for row in rows {
            let golden_path = plugin_dir.join(format!("{}.{SNAPSHOT_EXTENSION}", row.host));
            // What `snapshot` feeds this host: the fields it knows, and only if its matcher admits it.
            let Some((_, fed)) =
                snapshot::recorded_inputs(&inputs_dir, row, &RealDisk).into_iter().find(|(c, _)| *c == case)
            else {
                hosts.push(json!({ "host": row.host.name(), "status": "not run",
                    "why": "the hook's matcher does not admit this event-wide input, so snapshot does not replay it here" }));
                continue;
            };
            let answer = snapshot::answer(&isolated, row, fed);
            // The same redactions as the snapshot's text.
            let text = snapshot::render_answer(hook, &case, &answer)
                .replace(canonical_artifact.as_str(), "[ARTIFACT]")
                .replace(self.artifact.as_str(), "[ARTIFACT]")
                .replace(canonical_root.as_str(), "[ROOT]")
                .replace(self.root.as_str(), "[ROOT]");
            let golden = std::fs::read_to_string(&golden_path).ok().map(|t| snapshot::parse(&t));
            let recorded = golden.as_ref().and_then(|g| g.answers.get(&(hook.to_string(), case.clone())));
            let (status, diff) = match recorded {
                None => ("new", String::new()),
                Some(old) => {
                    let old = snapshot::render_answer(hook, &case, old);
                    match old == text {
                        true => ("unchanged", String::new()),
                        false => ("changed", snapshot::unified_diff(&old, &text, golden_path.as_str())),
                    }
                }
            };
            hosts.push(json!({
                "host": row.host.name(),
                "status": status,
                "golden": golden_path,
                "answer": text,
                "diff": diff,
            }));
        }
        Ok(json!({ "case": case, "saved": saved, "input": input, "hosts": hosts }))
    }
}
