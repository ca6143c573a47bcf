//! Why each output was rebuilt or kept (`build --explain`). After every build the state of each
//! hook (its declaration, the hash of every input it pulls in, its outputs) is saved in the cache;
//! the next build compares against it. The state is advisory: deleting or corrupting it never
//! changes what is built, only how the reasons read.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::artifact::{ArtifactManifest, MANIFEST_PATH};
use crate::hosts::layout::{GITIGNORE_PATH, SHIPPED_DIR};
use crate::io::stamp::{InputSet, Stamp};
use crate::io::{CacheStore, Lookup, WriteOutcome};
use crate::pipeline::emit::{Emitted, RUNTIME_PATH};
use crate::pipeline::normalise::Hook;

/// What the previous build left, per output folder.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildState {
    pub generator: String,
    pub tables_revision: String,
    /// The canonical output folder the state is about: when it is gone, so is the state's use.
    #[serde(default)]
    pub output: String,
    pub hooks: BTreeMap<String, HookState>,
}

/// What a build read (by stamp and content) and wrote, kept in its own small cache entry: when all
/// of it is unchanged, the next build has nothing to do and does nothing, like cargo's fingerprints.
/// Inputs are trusted by their stamps the way git's index trusts them, and re-hashed only when a
/// stamp changed. Outputs are trusted while every folder holding them and the artifact manifest keep
/// their stamps (a file added, removed or replaced changes its folder's); a file edited in place is
/// not seen here, and `build --no-cache` rewrites it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fingerprint {
    pub generator: String,
    pub tables_revision: String,
    /// The canonical bundle root.
    pub root: String,
    /// The `--target` narrowing the build was asked for.
    pub targets: Vec<crate::vocabulary::target::Target>,
    /// The hosts built for.
    pub hosts: Vec<crate::vocabulary::target::Target>,
    /// Every file and folder the build read, by absolute path.
    pub inputs: InputSet,
    /// Every artifact file, artifact-relative.
    pub outputs: Vec<String>,
    /// Every artifact folder holding an output (`""`: the artifact itself), with its stamp.
    pub output_dirs: BTreeMap<String, Stamp>,
    /// The hooks built, as (id, name).
    pub hooks: Vec<(String, String)>,
    /// How many hooks each host can run (the manifest's index rows per host), so a no-op build
    /// reports them without reading the manifest.
    #[serde(default)]
    pub hook_rows: BTreeMap<crate::vocabulary::target::Target, usize>,
    /// The plugin's name, for the same report.
    #[serde(default)]
    pub plugin: String,
    /// The hooks a host does not get by the author's choice (`onMissingSelector`), as (hook, host,
    /// why), for the same report.
    #[serde(default)]
    pub skipped: Vec<(String, crate::vocabulary::target::Target, String)>,
    /// When this fingerprint was saved (its cache entry's mtime): input stamps are trusted only when
    /// older than that.
    #[serde(skip)]
    pub written_at: i128,
}

/// The stamps of every folder that holds one of `outputs`, or `None` if one cannot be read.
pub fn output_dirs(output: &camino::Utf8Path, outputs: &[String]) -> Option<BTreeMap<String, Stamp>> {
    let mut dirs: std::collections::BTreeSet<&str> = std::collections::BTreeSet::from([""]);
    for path in outputs {
        let mut rest = path.as_str();
        while let Some((dir, _)) = rest.rsplit_once('/') {
            dirs.insert(dir);
            rest = dir;
        }
    }
    dirs.into_iter().map(|dir| Some((dir.to_string(), crate::io::stamp::stamp(&output.join(dir))?))).collect()
}

/// Whether nothing the previous build read or wrote has changed since, so this build is a no-op.
pub fn unchanged(
    fingerprint: &Fingerprint,
    root: &camino::Utf8Path,
    targets: &[crate::vocabulary::target::Target],
    output: &camino::Utf8Path,
) -> bool {
    fingerprint.generator == crate::artifact::compiler_fingerprint()
        && fingerprint.tables_revision == crate::hosts::tables_revision()
        && fingerprint.root == root.as_str()
        && fingerprint.targets == targets
        && fingerprint.inputs.unchanged(fingerprint.written_at, root)
        && fingerprint.output_dirs.iter().all(|(dir, then)| crate::io::stamp::stamp(&output.join(dir)) == Some(*then))
}

pub fn load_fingerprint(cache: &CacheStore, output: &camino::Utf8Path) -> Option<Fingerprint> {
    let (found, written_at) = cache.read_typed::<Fingerprint>("fingerprint", &state_key(output));
    let mut fingerprint = found?;
    fingerprint.written_at = written_at;
    Some(fingerprint)
}

/// The cache entry a bundle's fingerprint is kept in.
pub fn fingerprint_entry(cache: &CacheStore, output: &camino::Utf8Path) -> camino::Utf8PathBuf {
    cache.entry_path("fingerprint", &state_key(output))
}

pub fn save_fingerprint(cache: &CacheStore, output: &camino::Utf8Path, fingerprint: &Fingerprint) {
    cache.write("fingerprint", &state_key(output), fingerprint);
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HookState {
    pub name: String,
    /// Event and handler: how a hook is recognised when its declaration (and so its id) changes.
    pub slot: String,
    /// The declaration's stable JSON.
    pub declaration: String,
    pub inputs: BTreeMap<String, String>,
    /// Its wrappers.
    pub outputs: Vec<String>,
    /// The other files its build produced (its bundle and source map).
    #[serde(default)]
    pub products: Vec<String>,
}

/// How the previous state was found.
#[derive(Clone, Debug, PartialEq)]
pub enum PreviousState {
    Found(Box<BuildState>),
    Missing,
    Corrupt,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HookStatus {
    Fresh,
    Rebuilt,
    Removed,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HookVerdict {
    pub id: String,
    pub name: String,
    pub status: HookStatus,
    pub reasons: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileAction {
    Written,
    Kept,
    Removed,
    /// In the artifact, but written by no build: left as it is.
    Untracked,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileVerdict {
    pub path: String,
    pub action: FileAction,
    pub reason: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Explanation {
    pub hooks: Vec<HookVerdict>,
    pub files: Vec<FileVerdict>,
}

impl Explanation {
    /// The explanation of a build that found nothing changed: every hook fresh, every file kept.
    pub fn all_fresh(fingerprint: &Fingerprint) -> Explanation {
        let hooks = fingerprint
            .hooks
            .iter()
            .map(|(id, name)| HookVerdict {
                id: id.clone(),
                name: name.clone(),
                status: HookStatus::Fresh,
                reasons: vec![],
            })
            .collect();
        let files = fingerprint
            .outputs
            .iter()
            .map(|path| FileVerdict { path: path.clone(), action: FileAction::Kept, reason: "fresh".into() })
            .collect();
        Explanation { hooks, files }
    }

    pub fn count(&self, status: HookStatus) -> usize {
        self.hooks.iter().filter(|h| h.status == status).count()
    }
}

fn state_key(output: &camino::Utf8Path) -> String {
    crate::vocabulary::digest::sha256_hex(output.as_str().as_bytes())
}

pub fn load_state(cache: &CacheStore, output: &camino::Utf8Path) -> PreviousState {
    match cache.read("state", &state_key(output)) {
        Lookup::Hit(body) => match serde_json::from_value::<BuildState>(body) {
            Ok(state) => PreviousState::Found(Box::new(state)),
            Err(_) => PreviousState::Corrupt,
        },
        Lookup::Miss => PreviousState::Missing,
        Lookup::Corrupt => PreviousState::Corrupt,
    }
}

/// Removes the state and fingerprint of outputs that no longer hold an artifact (and unreadable
/// entries), checking at most `limit` entries: a cache shared by every bundle of a machine would
/// otherwise keep one entry per folder ever built into. Entries of other compiler versions are kept:
/// a machine may switch between two, and each keeps its own no-op builds.
pub fn evict_orphans(cache: &CacheStore, limit: usize) {
    // Once per process: `build --recursive` and the Workbench build many times, and the entries
    // checked would be the same each time. Where the checks start turns with the clock, so that
    // successive builds go through the whole cache.
    static EVICTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if EVICTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let keys = cache.keys("state");
    let start = usize::try_from(crate::io::stamp::now_ns().rem_euclid(keys.len().max(1) as i128)).unwrap_or(0);
    for key in keys.iter().cycle().skip(start).take(limit.min(keys.len())) {
        #[derive(Deserialize)]
        struct Owner {
            #[serde(default)]
            output: String,
        }
        let (owner, _) = cache.read_typed::<Owner>("state", key);
        let orphaned = match owner {
            None => true,
            // States written before they named their output cannot be judged; they age out with
            // the cache layout.
            Some(owner) if owner.output.is_empty() => false,
            Some(owner) => !camino::Utf8Path::new(&owner.output).join(crate::artifact::MANIFEST_PATH).is_file(),
        };
        if orphaned {
            cache.remove("state", key);
            cache.remove("fingerprint", key);
        }
    }
}

pub fn save_state(cache: &CacheStore, output: &camino::Utf8Path, state: &BuildState) {
    cache.write("state", &state_key(output), state);
}

fn slot(hook: &Hook) -> String {
    format!("{}:{}", hook.event, hook.handler.path())
}

/// The state this build leaves for the next one.
pub fn current_state(
    hooks: &[&Hook],
    emitted: &Emitted,
    manifest: &ArtifactManifest,
    output: &camino::Utf8Path,
) -> BuildState {
    let mut states = BTreeMap::new();
    let mut outputs_of: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for row in &manifest.hooks {
        outputs_of.entry(row.id.as_str()).or_default().push(row.path.clone());
    }
    for hook in hooks {
        let Some(inputs) = emitted.inputs.get(&hook.id) else { continue };
        let outputs = outputs_of.remove(hook.id.as_str()).unwrap_or_default();
        states.insert(
            hook.id.clone(),
            HookState {
                name: hook.name.clone(),
                slot: slot(hook),
                declaration: hook.identity.clone(),
                inputs: inputs.clone(),
                outputs,
                products: emitted.products.get(&hook.id).cloned().unwrap_or_default(),
            },
        );
    }
    BuildState {
        generator: crate::artifact::compiler_fingerprint(),
        tables_revision: crate::hosts::tables_revision(),
        output: output.to_string(),
        hooks: states,
    }
}

/// Compares this build with the previous one: a verdict per hook and a reason per file.
pub fn explain(previous: &PreviousState, current: &BuildState, write: &WriteOutcome) -> Explanation {
    let empty = BuildState::default();
    let (before, global): (&BuildState, Option<&str>) = match previous {
        PreviousState::Found(state) => (state, None),
        PreviousState::Missing => (&empty, Some("no previous build state (first build, or the cache was cleared)")),
        PreviousState::Corrupt => (&empty, Some("the previous build state was corrupt, so it was not trusted")),
    };
    let written: BTreeSet<&str> = write.written.iter().map(String::as_str).collect();
    let mut hook_reasons: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut hooks = Vec::new();
    for (id, now) in &current.hooks {
        let mut reasons = Vec::new();
        // What this hook's build put in the artifact: its wrappers, its bundle and map.
        let rewrote_any = now.outputs.iter().chain(&now.products).any(|o| written.contains(o.as_str()));
        if let Some(global) = global {
            // Without a previous state, the artifact itself is the judge: unchanged outputs are fresh.
            if rewrote_any {
                reasons.push(global.to_string());
            }
        } else {
            if before.generator != current.generator {
                reasons.push(format!("compiler version changed ({} → {})", before.generator, current.generator));
            }
            if before.tables_revision != current.tables_revision {
                reasons.push("host table revision changed".to_string());
            }
            match before.hooks.get(id) {
                Some(then) => {
                    let changed = changed_inputs(&then.inputs, &now.inputs);
                    let (packages, files): (Vec<String>, Vec<String>) =
                        changed.into_iter().partition(|input| input.starts_with("npm:"));
                    if !files.is_empty() {
                        reasons.push(format!("handler bytes changed: {}", files.join(", ")));
                    }
                    if !packages.is_empty() {
                        let names: Vec<&str> = packages.iter().map(|p| &p["npm:".len()..]).collect();
                        reasons.push(format!("npm package changed: {}", names.join(", ")));
                    }
                }
                None => match before.hooks.values().find(|then| then.slot == now.slot) {
                    Some(then) => reasons
                        .push(format!("declaration changed: {}", changed_fields(&then.declaration, &now.declaration))),
                    None => reasons.push("new hook".to_string()),
                },
            }
            if reasons.is_empty() && rewrote_any {
                reasons.push("output missing".to_string());
            }
        }
        let status = if reasons.is_empty() { HookStatus::Fresh } else { HookStatus::Rebuilt };
        hooks.push(HookVerdict { id: id.clone(), name: now.name.clone(), status, reasons: reasons.clone() });
        hook_reasons.insert(id, reasons);
    }
    for (id, then) in &before.hooks {
        if !current.hooks.contains_key(id) {
            hooks.push(HookVerdict {
                id: id.clone(),
                name: then.name.clone(),
                status: HookStatus::Removed,
                reasons: vec!["no longer declared, or its declaration changed".into()],
            });
        }
    }

    let mut files = Vec::new();
    for path in &write.kept {
        files.push(FileVerdict { path: path.clone(), action: FileAction::Kept, reason: "fresh".into() });
    }
    for path in &write.removed {
        files.push(FileVerdict {
            path: path.clone(),
            action: FileAction::Removed,
            reason: "no hook produces it any more".into(),
        });
    }
    for path in &write.untracked {
        files.push(FileVerdict {
            path: path.clone(),
            action: FileAction::Untracked,
            reason: "no build wrote it (the previous manifest does not list it), so it was left in place".into(),
        });
    }
    for path in &write.written {
        let reason = file_reason(path, before, current, &hook_reasons, global);
        files.push(FileVerdict { path: path.clone(), action: FileAction::Written, reason });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Explanation { hooks, files }
}

fn file_reason(
    path: &str,
    before: &BuildState,
    current: &BuildState,
    hook_reasons: &BTreeMap<&str, Vec<String>>,
    global: Option<&str>,
) -> String {
    if let Some(global) = global {
        return global.to_string();
    }
    let producers: Vec<&str> = current
        .hooks
        .iter()
        .filter(|(_, h)| h.outputs.iter().chain(&h.products).any(|o| o == path))
        .map(|(id, _)| id.as_str())
        .collect();
    if !producers.is_empty() {
        let mut reasons: Vec<String> = producers
            .iter()
            .flat_map(|id| hook_reasons[id].iter().cloned())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if reasons.is_empty() {
            reasons.push("output missing".into());
        }
        return reasons.join("; ");
    }
    if path.starts_with(&format!("{SHIPPED_DIR}/")) || path == GITIGNORE_PATH {
        return "a package shipped whole (bundle.external) changed".into();
    }
    if path == MANIFEST_PATH {
        return "the artifact's files changed".into();
    }
    if path == RUNTIME_PATH && before.generator != current.generator {
        return "compiler version changed".into();
    }
    let ids = |state: &BuildState| state.hooks.keys().cloned().collect::<BTreeSet<_>>();
    if ids(before) != ids(current) {
        return "the set of hooks changed".into();
    }
    "output missing or changed outside agent-bundle".into()
}

fn changed_inputs(then: &BTreeMap<String, String>, now: &BTreeMap<String, String>) -> Vec<String> {
    let keys: BTreeSet<&String> = then.keys().chain(now.keys()).collect();
    keys.into_iter().filter(|k| then.get(*k) != now.get(*k)).cloned().collect()
}

/// The identity fields that differ between two declarations (`timeout`, `tools`, …).
fn changed_fields(then: &str, now: &str) -> String {
    let parse = |text: &str| serde_json::from_str::<Value>(text).unwrap_or(Value::Null);
    let (then, now) = (parse(then), parse(now));
    let keys: BTreeSet<&String> = then.as_object().into_iter().chain(now.as_object()).flat_map(|o| o.keys()).collect();
    let changed: Vec<&str> =
        keys.into_iter().filter(|k| then.get(k.as_str()) != now.get(k.as_str())).map(String::as_str).collect();
    if changed.is_empty() { "identity".into() } else { changed.join(", ") }
}
