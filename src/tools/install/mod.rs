//! `install`, `uninstall` and `doctor`: a built artifact put where each host loads it, the host's
//! own way (from the distribution table: its command line from a local marketplace agent-bundle
//! writes, or a folder it loads extensions from), with a receipt of everything placed and
//! registered. Every run is planned first ([`Plan`]), so `--plan` shows exactly what would happen
//! and nothing else does.

pub mod doctor;
pub mod receipt;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use camino::{Utf8Path, Utf8PathBuf};
use serde::Serialize;

use crate::artifact::{ArtifactManifest, MANIFEST_PATH};
use crate::diagnostic::{Diagnostic, messages};
use crate::driver::catalog;
use crate::hosts::distribution::{self, Install, ProgramInstall};
use crate::io::RealDisk;
use crate::vocabulary::digest::sha256_hex;
use crate::vocabulary::target::Target;
pub use receipt::{HostRecord, OwnedFile, Receipt, SharedFile};

/// Where and for whom to install.
#[derive(Clone, Debug)]
pub struct Options {
    pub artifact: Utf8PathBuf,
    /// The hosts asked for; empty: every host the artifact is built for that install can reach
    /// (hosts whose program is not found are skipped, and said so).
    pub hosts: Vec<Target>,
    /// `user` or `project`.
    pub scope: String,
    pub home: Utf8PathBuf,
    /// agent-bundle's own data folder (receipts, local marketplaces).
    pub data: Utf8PathBuf,
    /// The project folder (`--scope project`), where host programs run.
    pub project: Utf8PathBuf,
    /// The `PATH` to find host programs on, and variables that name them.
    pub path: Option<std::ffi::OsString>,
    pub program_overrides: Vec<(String, Utf8PathBuf)>,
}

/// agent-bundle's data folder: `AGENT_BUNDLE_HOME`, else `$XDG_DATA_HOME/agent-bundle`, else
/// `~/.local/share/agent-bundle`.
pub fn default_data_dir(home: &Utf8Path) -> Utf8PathBuf {
    let from = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty()).map(Utf8PathBuf::from);
    from("AGENT_BUNDLE_HOME")
        .or_else(|| from("XDG_DATA_HOME").map(|d| d.join("agent-bundle")))
        .unwrap_or_else(|| home.join(".local/share/agent-bundle"))
}

/// One thing a run does, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum Action {
    /// Copy the artifact's files (or a folder of it) into `to`.
    Place { host: Option<Target>, from: Utf8PathBuf, to: Utf8PathBuf, files: usize },
    /// Write a catalog of the local marketplace.
    WriteCatalog { path: Utf8PathBuf },
    /// Write the module a host loads beside a placed folder (OpenCode's `plugins/<plugin>.js`).
    WriteEntry { host: Target, path: Utf8PathBuf },
    /// Write a hook file the host runs, shared by the agent-bundle plugins beside it (Cline CLI's).
    WriteHookFile { host: Target, path: Utf8PathBuf },
    /// Remove a shared hook file, unless a plugin left beside it other than the one at `except` (its
    /// own, being removed) takes its event.
    RemoveHookFile {
        path: Utf8PathBuf,
        #[serde(skip)]
        file: SharedFile,
        #[serde(skip)]
        except: Utf8PathBuf,
    },
    /// Run a host program.
    Run { host: Target, program: Utf8PathBuf, args: Vec<String> },
    /// Remove a file install owns.
    Remove { path: Utf8PathBuf },
    /// Write (or, at uninstall, remove) the receipt.
    Receipt { path: Utf8PathBuf, remove: bool },
}

impl Action {
    pub fn shown(&self) -> String {
        match self {
            Action::Place { host, from, to, files } => {
                let host = host.map(|h| format!(" for {h}")).unwrap_or_default();
                format!("place {files} files of {from} in {to}{host}")
            }
            Action::WriteCatalog { path } => format!("write the local marketplace's catalog {path}"),
            Action::WriteEntry { host, path } => format!("write {path}, the module {host} loads"),
            Action::WriteHookFile { host, path } => {
                format!("write {path}, the hook file {host} runs (shared by the agent-bundle plugins beside it)")
            }
            Action::RemoveHookFile { path, .. } => {
                format!("remove {path} unless a plugin left beside it takes its event")
            }
            Action::Run { host, program, args } => format!("run ({host}) {program} {}", args.join(" ")),
            Action::Remove { path } => format!("remove {path}"),
            Action::Receipt { path, remove: false } => format!("write the receipt {path}"),
            Action::Receipt { path, remove: true } => format!("remove the receipt {path}"),
        }
    }
}

/// What a run will do.
#[derive(Clone, Debug, Serialize)]
pub struct Plan {
    pub plugin: String,
    pub actions: Vec<Action>,
    /// Hosts left out, each with the reason.
    pub skipped: Vec<(Target, String)>,
    /// Already installed exactly so: nothing to do.
    pub up_to_date: bool,
    #[serde(skip)]
    receipt: Option<Receipt>,
    #[serde(skip)]
    files: Vec<(Utf8PathBuf, Content)>,
}

#[derive(Clone, Debug)]
enum Content {
    Bytes(Vec<u8>, u32),
    Link(String),
}

/// The verified artifact at `dir`, with the SHA-256 of its manifest.
fn artifact(dir: &Utf8Path) -> Result<(ArtifactManifest, String), Diagnostic> {
    let manifest = crate::artifact::read_verified(dir, &RealDisk)
        .map_err(|e| messages::install_no_artifact(dir, &e.to_string()))?;
    let bytes =
        fs_err::read(dir.join(MANIFEST_PATH)).map_err(|e| messages::install_no_artifact(dir, &e.to_string()))?;
    Ok((manifest, sha256_hex(&bytes)))
}

fn read_receipt(path: &Utf8Path, plugin: &str) -> Result<Option<Receipt>, Diagnostic> {
    let bytes = match fs_err::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(messages::receipt_unreadable(path, &e.to_string())),
    };
    let receipt: Receipt =
        serde_json::from_slice(&bytes).map_err(|e| messages::receipt_unreadable(path, &e.to_string()))?;
    if receipt.schema != receipt::RECEIPT_SCHEMA || receipt.plugin != plugin {
        return Err(messages::receipt_unreadable(
            path,
            &format!("it is a receipt of `{}` (schema {})", receipt.plugin, receipt.schema),
        ));
    }
    Ok(Some(receipt))
}

/// Finds a host program: the variable that names it, else `PATH`.
fn find_program(install: &ProgramInstall, options: &Options) -> Option<Utf8PathBuf> {
    find_named(&install.program, &install.program_variable, options)
}

/// A program by the variable that names it, else by its name on `PATH`.
pub(crate) fn find_named(program: &str, variable: &str, options: &Options) -> Option<Utf8PathBuf> {
    if let Some((_, path)) = options.program_overrides.iter().find(|(v, _)| *v == variable) {
        return Some(path.clone());
    }
    let path = options.path.clone()?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
        .and_then(|p| Utf8PathBuf::from_path_buf(p).ok())
}

fn fill(args: &[String], plugin: &str, marketplace: &str, marketplace_dir: &Utf8Path, scope: &str) -> Vec<String> {
    args.iter()
        .map(|a| {
            a.replace("{marketplaceDir}", marketplace_dir.as_str())
                .replace("{marketplace}", marketplace)
                .replace("{plugin}", plugin)
                .replace("{scope}", scope)
        })
        .collect()
}

/// Every file of the artifact under `prefix` (all of it when empty), with what to write.
fn artifact_files(
    dir: &Utf8Path,
    manifest: &ArtifactManifest,
    prefix: &str,
) -> Result<Vec<(String, Content)>, Diagnostic> {
    let mut files = Vec::new();
    let records = manifest.files.iter().map(|r| (r.path.clone(), r.symlink.clone(), r.mode));
    for (path, link, mode) in records.chain([(MANIFEST_PATH.to_string(), None, Some(0o644))]) {
        let relative = if prefix.is_empty() {
            path.clone()
        } else {
            match path.strip_prefix(&format!("{prefix}/")) {
                Some(rest) => rest.to_string(),
                None => continue,
            }
        };
        let content = match link {
            Some(target) => Content::Link(target),
            None => {
                let bytes =
                    fs_err::read(dir.join(&path)).map_err(|e| messages::install_no_artifact(dir, &e.to_string()))?;
                Content::Bytes(bytes, mode.unwrap_or(0o644))
            }
        };
        files.push((relative, content));
    }
    Ok(files)
}

/// Plans installing `options.artifact`.
pub fn plan_install(options: &Options) -> Result<Plan, Diagnostic> {
    let dir = options
        .artifact
        .canonicalize_utf8()
        .map_err(|e| messages::install_no_artifact(&options.artifact, &e.to_string()))?;
    let (manifest, hash) = artifact(&dir)?;
    let plugin = manifest.plugin.name.clone();
    let receipt_path = receipt::receipt_path(&options.data, &plugin);
    let previous = read_receipt(&receipt_path, &plugin)?;
    let marketplace_dir = receipt::install_dir(&options.data, &plugin).join("marketplace");
    let (chosen, skipped) = choose_hosts(options, &dir, &manifest)?;
    let installing = Installing {
        options,
        plugin_dir: marketplace_dir.join("plugins").join(&plugin),
        marketplace: format!("agent-bundle-{plugin}"),
        marketplace_dir,
        dir,
        manifest: &manifest,
        previous: previous.as_ref(),
    };

    // What goes where.
    let mut placing = Placing::default();
    installing.place_marketplace(&chosen, &mut placing)?;
    for (host, install, program) in &chosen {
        match install {
            Install::Program(p) => {
                let program = program.clone().expect("a program install found its program");
                installing.register(*host, p, program, &mut placing);
            }
            Install::Folder(f) => installing.place_folder(*host, f, &mut placing)?,
        }
    }

    let receipt = installing.receipt(hash, &placing);
    if let Some(previous) = &previous {
        let same = |r: &Receipt| (r.artifact_hash.clone(), r.scope.clone(), r.files.clone(), r.hosts.clone());
        if same(previous) == same(&receipt) && placed_intact(previous) {
            return Ok(Plan {
                plugin,
                actions: Vec::new(),
                skipped,
                up_to_date: true,
                receipt: None,
                files: Vec::new(),
            });
        }
    }
    // Never overwrite what install does not own: a shared hook file only over another copy of it.
    let owned: BTreeSet<&Utf8Path> = previous.iter().flat_map(|r| r.files.iter().map(|f| f.path.as_path())).collect();
    for (path, _) in &placing.files {
        let shared = placing.shared.iter().find(|s| s.path == *path);
        if std::fs::symlink_metadata(path).is_ok()
            && !owned.contains(path.as_path())
            && !shared.is_some_and(SharedFile::is_ours)
        {
            return Err(messages::install_not_owned(path, &receipt_path));
        }
    }
    let Placing { files, actions, runs, .. } = placing;
    let mut all = previous.as_ref().map(|previous| update(previous, &files)).unwrap_or_default();
    all.extend(actions);
    all.extend(runs);
    all.push(Action::Receipt { path: receipt_path, remove: false });
    Ok(Plan { plugin, actions: all, skipped, up_to_date: false, receipt: Some(receipt), files })
}

/// A host chosen for an install: how it installs and, for a program install, the program found.
type Chosen = (Target, &'static Install, Option<Utf8PathBuf>);

/// Hosts left out, each with the reason.
type Skipped = Vec<(Target, String)>;

/// Which hosts, and how: the hosts asked for (each an error when install cannot reach it), or every
/// host the artifact is built for that install can reach (the others skipped, with the reason).
/// None at all is an error.
fn choose_hosts(
    options: &Options,
    dir: &Utf8Path,
    manifest: &ArtifactManifest,
) -> Result<(Vec<Chosen>, Skipped), Diagnostic> {
    let built: Vec<Target> = manifest.hosts.keys().copied().collect();
    let asked = !options.hosts.is_empty();
    let wanted: Vec<Target> = if asked { options.hosts.clone() } else { built.clone() };
    let mut skipped = Vec::new();
    let mut chosen: Vec<Chosen> = Vec::new();
    for host in wanted {
        // A host another host's plugin serves (Kilo CLI, OpenCode's) installs from that plugin.
        let served = crate::hosts::table(host).served_by.is_some_and(|server| built.contains(&server));
        if !built.contains(&host) && !served {
            return Err(messages::install_host_not_built(host, dir, &built));
        }
        let install = match distribution::distribution(host).map(|d| d.install.supported()) {
            Some(Ok(install)) => install,
            Some(Err(reason)) if !asked => {
                skipped.push((host, reason.to_string()));
                continue;
            }
            Some(Err(reason)) => return Err(messages::install_host_unsupported(host, reason)),
            None => continue,
        };
        if !install.scopes().contains(&options.scope) {
            let reason = format!("{host} installs for scope {} only", install.scopes().join(", "));
            if asked {
                return Err(messages::install_scope_unsupported(host, &options.scope, install.scopes()));
            }
            skipped.push((host, reason));
            continue;
        }
        let program = match install {
            Install::Program(program) => match find_program(program, options) {
                Some(found) => Some(found),
                None if asked => {
                    return Err(messages::install_program_missing(host, &program.program, &program.program_variable));
                }
                None => {
                    skipped.push((
                        host,
                        format!("`{}` is not on PATH (set {} to name it)", program.program, program.program_variable),
                    ));
                    continue;
                }
            },
            Install::Folder(_) => None,
        };
        chosen.push((host, install, program));
    }
    if chosen.is_empty() {
        return Err(messages::install_no_host(dir, &skipped));
    }
    Ok((chosen, skipped))
}

/// One install being planned: the artifact, where its local marketplace goes, and the previous
/// install's receipt.
struct Installing<'a> {
    options: &'a Options,
    /// The artifact's folder, canonical.
    dir: Utf8PathBuf,
    manifest: &'a ArtifactManifest,
    marketplace: String,
    marketplace_dir: Utf8PathBuf,
    /// Where the local marketplace holds the plugin.
    plugin_dir: Utf8PathBuf,
    previous: Option<&'a Receipt>,
}

/// What an install places, writes and runs, as it is planned.
#[derive(Default)]
struct Placing {
    files: Vec<(Utf8PathBuf, Content)>,
    /// Placing files and writing catalogs, in order.
    actions: Vec<Action>,
    /// The host programs' registrations, run after everything is placed.
    runs: Vec<Action>,
    hosts: Vec<HostRecord>,
    /// Of `files`, the hook files shared with the plugins beside them.
    shared: Vec<SharedFile>,
}

impl Installing<'_> {
    fn plugin(&self) -> &str {
        &self.manifest.plugin.name
    }

    /// For the hosts installed through their program: the artifact copied into the local
    /// marketplace, and the marketplace's catalogs those hosts read.
    fn place_marketplace(&self, chosen: &[Chosen], placing: &mut Placing) -> Result<(), Diagnostic> {
        let through_marketplace: Vec<&Chosen> =
            chosen.iter().filter(|(_, install, _)| matches!(install, Install::Program(_))).collect();
        if through_marketplace.is_empty() {
            return Ok(());
        }
        let (dir, plugin_dir) = (&self.dir, &self.plugin_dir);
        let copied = artifact_files(dir, self.manifest, "")?;
        placing.actions.push(Action::Place {
            host: None,
            from: dir.clone(),
            to: plugin_dir.clone(),
            files: copied.len(),
        });
        placing.files.extend(copied.into_iter().map(|(p, c)| (plugin_dir.join(p), c)));
        // The local marketplace's catalogs: the ones its hosts read.
        let declaration = catalog::Declaration {
            name: self.marketplace.clone(),
            owner: catalog::Owner { name: "agent-bundle".into(), email: None, url: None },
            description: format!("{}, installed from {dir} by agent-bundle", self.plugin()),
        };
        let listed = [catalog::Listed { artifact: plugin_dir.clone(), manifest: self.manifest }];
        let needed: BTreeSet<&str> = through_marketplace
            .iter()
            .filter_map(|(_, install, _)| match install {
                Install::Program(p) => Some(p.catalog.as_str()),
                Install::Folder(_) => None,
            })
            .collect();
        for file in catalog::render(&self.marketplace_dir, &declaration, &listed)? {
            if needed.contains(file.path.as_str()) {
                let path = self.marketplace_dir.join(&file.path);
                placing.actions.push(Action::WriteCatalog { path: path.clone() });
                placing.files.push((path, Content::Bytes(file.bytes, 0o644)));
            }
        }
        Ok(())
    }

    /// A host installed through its program: the commands that register the plugin from the local
    /// marketplace, their undo, and what the host's config files held before.
    fn register(&self, host: Target, install: &ProgramInstall, program: Utf8PathBuf, placing: &mut Placing) {
        let (plugin, options) = (self.plugin(), self.options);
        let filled = |steps: &[Vec<String>]| -> Vec<Vec<String>> {
            steps.iter().map(|s| fill(s, plugin, &self.marketplace, &self.marketplace_dir, &options.scope)).collect()
        };
        let registered = filled(&install.steps);
        let undo = filled(&install.undo);
        for args in &registered {
            placing.runs.push(Action::Run { host, program: program.clone(), args: args.clone() });
        }
        // What the host's files held before the first install (kept from it on an update).
        let earlier = self.previous.and_then(|r| r.hosts.iter().find(|h| h.host == host));
        let config = install
            .config
            .iter()
            .map(|file| {
                let path = config_path(file, &options.home);
                let kept = earlier.and_then(|h| h.config.iter().find(|c| c.path == path)).map(|c| c.before.clone());
                let before = kept.unwrap_or_else(|| fs_err::read_to_string(&path).ok());
                receipt::ConfigBefore { path, before }
            })
            .collect();
        placing.hosts.push(HostRecord {
            host,
            placed: self.plugin_dir.clone(),
            program: Some(program),
            registered,
            undo,
            config,
        });
    }

    /// A host that loads extensions from a folder: its part of the artifact copied there.
    fn place_folder(
        &self,
        host: Target,
        install: &distribution::FolderInstall,
        placing: &mut Placing,
    ) -> Result<(), Diagnostic> {
        let plugin = |path: &str| path.replace("{plugin}", self.plugin());
        // The folder and the entry beside it: the project's place with `--scope project`.
        let in_project = install.project.is_some() && self.options.scope == "project";
        let root = install.root(&self.options.home);
        let (to, entry) = match (&install.project, in_project) {
            (Some(project), true) => (
                self.options.project.join(plugin(&project.folder)),
                project.entry.as_deref().map(|file| self.options.project.join(plugin(file))),
            ),
            _ => (root.join(plugin(&install.folder)), install.entry.as_ref().map(|e| root.join(plugin(&e.file)))),
        };
        let copied = artifact_files(&self.dir, self.manifest, &install.from)?;
        placing.actions.push(Action::Place {
            host: Some(host),
            from: self.dir.join(&install.from),
            to: to.clone(),
            files: copied.len(),
        });
        placing.files.extend(copied.into_iter().map(|(p, c)| (to.join(p), c)));
        if let (Some(path), Some(entry)) = (entry, &install.entry) {
            placing.actions.push(Action::WriteEntry { host, path: path.clone() });
            placing.files.push((path, Content::Bytes(plugin(&entry.text).into_bytes(), 0o644)));
        }
        // The hook files the host runs from its hooks folder: the artifact's, shared there.
        if let Some(place) = &install.hook_files {
            let folder = match (&place.project_folder, in_project) {
                (Some(project), true) => self.options.project.join(project),
                _ => root.join(&place.folder),
            };
            let paths = crate::hosts::layout::layout().host(host).expect("a host with hook files has hooks");
            for (_, file) in paths.hook_files() {
                let Some(record) = self.manifest.files.iter().find(|r| r.path == file) else { continue };
                let bytes = fs_err::read(self.dir.join(&file))
                    .map_err(|e| messages::install_no_artifact(&self.dir, &e.to_string()))?;
                let path = folder.join(file.rsplit('/').next().expect("a file has a name"));
                placing.actions.push(Action::WriteHookFile { host, path: path.clone() });
                placing.files.push((path.clone(), Content::Bytes(bytes, record.mode.unwrap_or(0o644))));
                let plugins = to.parent().expect("a placed folder has a parent").to_path_buf();
                placing.shared.push(SharedFile { path, plugins, marker: place.marker.clone() });
            }
        }
        placing.hosts.push(HostRecord {
            host,
            placed: to,
            program: None,
            registered: Vec::new(),
            undo: Vec::new(),
            config: Vec::new(),
        });
        Ok(())
    }

    /// The receipt of this install: every file placed with its hash, every host with what undoes it.
    fn receipt(&self, artifact_hash: String, placing: &Placing) -> Receipt {
        Receipt {
            schema: receipt::RECEIPT_SCHEMA,
            generator: crate::artifact::generator(),
            plugin: self.plugin().to_string(),
            version: self.manifest.plugin.version.clone(),
            artifact: self.dir.clone(),
            artifact_hash,
            scope: self.options.scope.clone(),
            marketplace: self.marketplace.clone(),
            files: placing
                .files
                .iter()
                .filter(|(path, _)| !placing.shared.iter().any(|s| s.path == *path))
                .map(|(path, content)| OwnedFile {
                    path: path.clone(),
                    sha256: match content {
                        Content::Bytes(bytes, _) => sha256_hex(bytes),
                        Content::Link(target) => sha256_hex(target.as_bytes()),
                    },
                    symlink: match content {
                        Content::Link(target) => Some(target.clone()),
                        Content::Bytes(..) => None,
                    },
                })
                .collect(),
            shared: placing.shared.clone(),
            folders: Vec::new(),
            hosts: placing.hosts.clone(),
        }
    }
}

/// An update: what the previous install registered is undone first, and what it placed and this
/// one (placing `files`) does not is removed.
fn update(previous: &Receipt, files: &[(Utf8PathBuf, Content)]) -> Vec<Action> {
    let mut actions = Vec::new();
    for record in &previous.hosts {
        if let Some(program) = &record.program {
            for args in &record.undo {
                actions.push(Action::Run { host: record.host, program: program.clone(), args: args.clone() });
            }
        }
    }
    let kept: BTreeSet<&Utf8Path> = files.iter().map(|(p, _)| p.as_path()).collect();
    for file in &previous.files {
        if !kept.contains(file.path.as_path()) {
            actions.push(Action::Remove { path: file.path.clone() });
        }
    }
    for file in previous.shared.iter().filter(|s| !kept.contains(s.path.as_path())) {
        actions.push(remove_hook_file(previous, file));
    }
    actions
}

/// Whether every file a receipt records is on disk as recorded (a shared hook file: a copy of it,
/// which another plugin's install may have written).
pub fn placed_intact(receipt: &Receipt) -> bool {
    receipt.files.iter().all(file_intact) && receipt.shared.iter().all(SharedFile::is_ours)
}

/// The removal of `receipt`'s shared hook file `file`: its plugin's own folder beside it does not count.
fn remove_hook_file(receipt: &Receipt, file: &SharedFile) -> Action {
    Action::RemoveHookFile {
        path: file.path.clone(),
        file: file.clone(),
        except: own_folder(receipt, file).to_path_buf(),
    }
}

/// The folder `receipt`'s plugin was placed in beside the shared hook file `file` (empty: none).
fn own_folder<'r>(receipt: &'r Receipt, file: &SharedFile) -> &'r Utf8Path {
    receipt
        .hosts
        .iter()
        .map(|h| h.placed.as_path())
        .find(|placed| placed.starts_with(&file.plugins))
        .unwrap_or(Utf8Path::new(""))
}

/// Carries out [`Action::RemoveHookFile`]: the file goes unless another plugin beside it takes its
/// event, or it is no copy of agent-bundle's any more.
fn apply_remove_hook_file(file: &SharedFile, except: &Utf8Path) {
    if file.is_ours() && !file.taken_by_another(except) {
        let _ = std::fs::remove_file(&file.path);
    }
}

pub(crate) fn file_intact(file: &OwnedFile) -> bool {
    match &file.symlink {
        Some(target) => std::fs::read_link(&file.path).ok().is_some_and(|t| t.to_str() == Some(target.as_str())),
        None => fs_err::read(&file.path).ok().is_some_and(|bytes| sha256_hex(&bytes) == file.sha256),
    }
}

/// How long one host command may take.
const COMMAND_LIMIT: Duration = Duration::from_secs(120);

/// Runs a host program with a time limit; its exit code, stdout and stderr.
pub(crate) fn run_program(
    program: &Utf8Path,
    args: &[String],
    cwd: &Utf8Path,
) -> std::io::Result<(Option<i32>, String, String)> {
    let out = tempfile::tempfile()?;
    let err = tempfile::tempfile()?;
    let mut child = std::process::Command::new(program)
        .args(args)
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .stdout(out.try_clone()?)
        .stderr(err.try_clone()?)
        .spawn()?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if started.elapsed() > COMMAND_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |mut file: std::fs::File| {
        use std::io::{Read, Seek};
        let mut text = String::new();
        let _ = file.seek(std::io::SeekFrom::Start(0));
        let _ = file.read_to_string(&mut text);
        text
    };
    Ok((status.and_then(|s| s.code()), read(out), read(err)))
}

fn run_checked(host: Target, program: &Utf8Path, args: &[String], cwd: &Utf8Path) -> Result<(), Diagnostic> {
    match run_program(program, args, cwd) {
        Ok((Some(0), _, _)) => Ok(()),
        Ok((code, stdout, stderr)) => {
            Err(messages::install_command_failed(host, program, args, code, &format!("{stdout}{stderr}")))
        }
        Err(e) => Err(messages::install_command_failed(host, program, args, None, &e.to_string())),
    }
}

fn write_file(path: &Utf8Path, content: &Content, created: &mut Vec<Utf8PathBuf>) -> std::io::Result<()> {
    let parent = path.parent().expect("an installed file has a folder");
    let mut missing = Vec::new();
    let mut at = Some(parent);
    while let Some(dir) = at {
        if dir.exists() {
            break;
        }
        missing.push(dir.to_path_buf());
        at = dir.parent();
    }
    fs_err::create_dir_all(parent)?;
    created.extend(missing);
    let _ = std::fs::remove_file(path);
    match content {
        Content::Link(target) => std::os::unix::fs::symlink(target, path)?,
        Content::Bytes(bytes, mode) => {
            use std::os::unix::fs::PermissionsExt;
            let mut temporary = tempfile::NamedTempFile::new_in(parent)?;
            std::io::Write::write_all(&mut temporary, bytes)?;
            temporary.as_file().set_permissions(std::fs::Permissions::from_mode(*mode))?;
            temporary.persist(path).map_err(|e| e.error)?;
        }
    }
    Ok(())
}

/// Carries out an install plan. When a step fails, what this run did is undone (its
/// registrations, then its files) and the previous receipt stays as it was.
pub fn apply_install(plan: Plan, options: &Options) -> Result<Option<Receipt>, Diagnostic> {
    let Some(mut receipt) = plan.receipt else { return Ok(None) };
    let cwd = if options.scope == "project" { options.project.clone() } else { options.home.clone() };
    let mut created = Vec::new();
    let mut done_undo: Vec<(Target, Utf8PathBuf, Vec<String>)> = Vec::new();
    let result = (|| -> Result<(), Diagnostic> {
        for action in &plan.actions {
            match action {
                Action::Run { host, program, args } => {
                    run_checked(*host, program, args, &cwd)?;
                    // The matching undo of a registration step (same index in the host's list).
                    let record = receipt.hosts.iter().find(|r| r.host == *host);
                    let step = record.and_then(|record| {
                        let i = record.registered.iter().position(|r| r == args)?;
                        record.undo.get(record.undo.len().checked_sub(1 + i)?)
                    });
                    if let Some(step) = step {
                        done_undo.push((*host, program.clone(), step.clone()));
                    }
                }
                Action::Remove { path } => {
                    let _ = std::fs::remove_file(path);
                }
                Action::RemoveHookFile { file, except, .. } => apply_remove_hook_file(file, except),
                Action::Place { .. }
                | Action::WriteCatalog { .. }
                | Action::WriteEntry { .. }
                | Action::WriteHookFile { .. }
                | Action::Receipt { .. } => {}
            }
            if let Action::Place { to, .. }
            | Action::WriteCatalog { path: to }
            | Action::WriteEntry { path: to, .. }
            | Action::WriteHookFile { path: to, .. } = action
            {
                for (path, content) in plan.files.iter().filter(|(p, _)| p.starts_with(to)) {
                    write_file(path, content, &mut created).map_err(|e| messages::install_write_failed(path, &e))?;
                }
            }
        }
        Ok(())
    })();
    if let Err(diagnostic) = result {
        // Back to "not installed": this run's registrations undone (a previous install's were
        // undone before it), every file of the plan removed, the folders it made, and the receipt.
        for (host, program, args) in done_undo.iter().rev() {
            let _ = run_checked(*host, program, args, &cwd);
        }
        for (path, _) in &plan.files {
            match receipt.shared.iter().find(|s| s.path == *path) {
                Some(shared) => apply_remove_hook_file(shared, own_folder(&receipt, shared)),
                None => {
                    let _ = std::fs::remove_file(path);
                }
            }
        }
        created.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
        for dir in &created {
            let _ = std::fs::remove_dir(dir);
        }
        let _ = std::fs::remove_file(receipt::receipt_path(&options.data, &receipt.plugin));
        return Err(diagnostic.note("what this run did was undone: the plugin is not installed now"));
    }
    created.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    receipt.folders = created;
    let receipt_path = receipt::receipt_path(&options.data, &receipt.plugin);
    let mut bytes = crate::vocabulary::json::pretty(&receipt).into_bytes();
    bytes.push(b'\n');
    write_file(&receipt_path, &Content::Bytes(bytes, 0o644), &mut Vec::new())
        .map_err(|e| messages::install_write_failed(&receipt_path, &e))?;
    Ok(Some(receipt))
}

/// Where a host's configuration file is: under `$<variable>` when set, else `~/<default>`.
fn config_path(file: &distribution::ConfigFile, home: &Utf8Path) -> Utf8PathBuf {
    let root = file.variable.as_deref().and_then(|v| std::env::var(v).ok()).filter(|v| !v.is_empty());
    root.map(Utf8PathBuf::from).unwrap_or_else(|| home.join(&file.default)).join(&file.file)
}

/// `value` without the object keys and list strings that name `marker` (the local marketplace).
fn without_marker(value: &serde_json::Value, marker: &str) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !k.contains(marker))
                .map(|(k, v)| (k.clone(), without_marker(v, marker)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .filter(|v| !v.as_str().is_some_and(|s| s.contains(marker)))
                .map(|v| without_marker(v, marker))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `value` without the keys `before` lacks whose values hold nothing (Claude Code leaves
/// `enabledPlugins: {}` and `extraKnownMarketplaces: {}` behind after uninstalling).
fn without_new_empties(value: &serde_json::Value, before: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match (value, before) {
        (Value::Object(map), Value::Object(was)) => Value::Object(
            map.iter()
                .filter(|(k, v)| was.contains_key(*k) || !empty(v))
                .map(|(k, v)| (k.clone(), was.get(k).map_or_else(|| v.clone(), |w| without_new_empties(v, w))))
                .collect(),
        ),
        _ => value.clone(),
    }
}

/// A file the host made: nothing in it but its own format fields (Claude Code's
/// `installed_plugins.json` keeps `"version": 2` beside an empty `plugins`).
fn holds_no_entry(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Object(map) => map.values().all(|v| empty(v) || !(v.is_object() || v.is_array())),
        other => empty(other),
    }
}

/// Holds nothing but empty objects, lists and strings.
fn empty(value: &serde_json::Value) -> bool {
    use serde_json::Value;
    match value {
        Value::Object(map) => map.values().all(empty),
        Value::Array(items) => items.iter().all(empty),
        Value::String(s) => s.is_empty(),
        Value::Null => true,
        _ => false,
    }
}

/// After the host's own undo commands: a configuration file back to what it held before install,
/// when what differs is only this plugin's entries (or, for a file that did not exist, only empty
/// containers). Otherwise it is left as it is, and the reason returned.
fn restore_config(config: &receipt::ConfigBefore, marker: &str) -> Option<String> {
    let current = fs_err::read_to_string(&config.path).ok();
    if current == config.before {
        return None;
    }
    let Some(current) = current else {
        return Some(format!("{} is gone since install; left so", config.path));
    };
    let parse = |text: &str| -> Option<serde_json::Value> {
        if config.path.extension() == Some("json") {
            serde_json::from_str(text).ok()
        } else {
            // Not JSON (Codex's TOML): only an empty file counts as holding nothing.
            text.trim().is_empty().then_some(serde_json::Value::Null)
        }
    };
    let cleaned = parse(&current).map(|v| without_marker(&v, marker));
    let restored = match (&config.before, cleaned) {
        (None, Some(cleaned)) if holds_no_entry(&cleaned) => fs_err::remove_file(&config.path).is_ok(),
        (Some(before), Some(cleaned)) if parse(before).is_some_and(|b| without_new_empties(&cleaned, &b) == b) => {
            fs_err::write(&config.path, before).is_ok()
        }
        _ => false,
    };
    (!restored).then(|| format!("{} changed beyond this plugin's entries since install; left as it is", config.path))
}

/// Plans removing what the receipt of `plugin` owns.
pub fn plan_uninstall(plugin: &str, options: &Options) -> Result<(Receipt, Vec<Action>), Diagnostic> {
    let receipt_path = receipt::receipt_path(&options.data, plugin);
    let receipt =
        read_receipt(&receipt_path, plugin)?.ok_or_else(|| messages::receipt_missing(plugin, &receipt_path))?;
    let mut actions = Vec::new();
    for record in &receipt.hosts {
        if let Some(program) = &record.program {
            for args in &record.undo {
                actions.push(Action::Run { host: record.host, program: program.clone(), args: args.clone() });
            }
        }
    }
    for file in &receipt.files {
        actions.push(Action::Remove { path: file.path.clone() });
    }
    for file in &receipt.shared {
        actions.push(remove_hook_file(&receipt, file));
    }
    actions.push(Action::Receipt { path: receipt_path, remove: true });
    Ok((receipt, actions))
}

/// Carries out an uninstall: the hosts' own undo commands (a failing one is reported, and the rest
/// still run), then the receipt's files, then the folders install made that are empty now. Files
/// someone else put in those folders stay, and so do their folders.
pub fn apply_uninstall(receipt: &Receipt, actions: &[Action], options: &Options) -> (Vec<Diagnostic>, Vec<String>) {
    let cwd = if receipt.scope == "project" { options.project.clone() } else { options.home.clone() };
    let problems: Vec<Diagnostic> = actions
        .iter()
        .filter_map(|action| match action {
            Action::Run { host, program, args } => run_checked(*host, program, args, &cwd).err(),
            _ => None,
        })
        .collect();
    // The hosts' undo commands have all run: their own files go back as they were.
    let left =
        receipt.hosts.iter().flat_map(|h| &h.config).filter_map(|c| restore_config(c, &receipt.marketplace)).collect();
    for action in actions {
        match action {
            Action::Remove { path } => {
                let _ = std::fs::remove_file(path);
            }
            Action::RemoveHookFile { file, except, .. } => apply_remove_hook_file(file, except),
            Action::Receipt { path, remove: true } => {
                let _ = std::fs::remove_file(path);
                for dir in &receipt.folders {
                    let _ = std::fs::remove_dir(dir);
                }
                // The folder of the plugins sharing hook files, once the last of them is gone.
                for file in &receipt.shared {
                    let _ = std::fs::remove_dir(&file.plugins);
                }
            }
            _ => {}
        }
    }
    (problems, left)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(before: Option<&str>, current: &str) -> (Option<String>, Option<String>) {
        let dir = tempfile::tempdir().unwrap();
        let path = Utf8PathBuf::from_path_buf(dir.path().join("settings.json")).unwrap();
        fs_err::write(&path, current).unwrap();
        let config = receipt::ConfigBefore { path: path.clone(), before: before.map(str::to_string) };
        let note = restore_config(&config, "agent-bundle-guards");
        (note, fs_err::read_to_string(&path).ok())
    }

    #[test]
    fn a_hosts_file_goes_back_only_when_what_differs_is_the_plugins_own() {
        let before = "{\n  \"model\": \"sonnet\"\n}\n";
        // The host left its entry for the plugin, and empty containers: back to the bytes before.
        let left =
            r#"{"model":"sonnet","enabledPlugins":{"guards@agent-bundle-guards":false},"extraKnownMarketplaces":{}}"#;
        assert_eq!(case(Some(before), left), (None, Some(before.to_string())));
        // The user changed a setting since: left as it is, and said so.
        let edited = r#"{"model":"opus","enabledPlugins":{"guards@agent-bundle-guards":false}}"#;
        let (note, now) = case(Some(before), edited);
        assert!(note.unwrap().contains("changed beyond this plugin's entries"));
        assert_eq!(now.as_deref(), Some(edited));
        // A file the host made for the install, holding no entry now: removed.
        assert_eq!(case(None, r#"{"version":2,"plugins":{}}"#), (None, None));
        // One that holds another plugin's entry: kept.
        let other = r#"{"version":2,"plugins":{"other@elsewhere":{"scope":"user"}}}"#;
        assert_eq!(case(None, other).1.as_deref(), Some(other));
        // A list naming the marketplace loses that item only.
        let listed = r#"{"model":"sonnet","marketplaces":["agent-bundle-guards"]}"#;
        let (note, now) = case(Some(r#"{"model":"sonnet","marketplaces":[]}"#), listed);
        assert_eq!((note, now.as_deref()), (None, Some(r#"{"model":"sonnet","marketplaces":[]}"#)));
    }
}
