//! `inspect --inputs`: everything a build of a bundle reads and writes, as the monorepo engines that
//! cache tasks by declared inputs and outputs (Turborepo, Nx, Bazel) need it (D15). Found by building
//! the bundle into a throw-away folder and sorting what that build recorded as read: the bundle's own
//! files, files outside it (a workspace's `tsconfig.base.json`, a shared module), the lockfiles that
//! pin the installed packages it read, and the compiler. The same data gives the engines' own
//! configuration ([`turbo_task`], [`nx_target`]), which `init --monorepo` writes.

use std::collections::BTreeSet;

use camino::{Utf8Path, Utf8PathBuf};
use serde::Serialize;
use serde_json::{Value, json};

use crate::driver::build_throwaway;
use crate::driver::engines::{COMPILER_VARIABLE, PROGRAM};
use crate::io::Disk;

/// The lockfiles of the package managers whose installs the bundler reads, by file name.
const LOCKFILES: &[&str] =
    &["package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock", "bun.lockb"];

/// What a build of one bundle reads and writes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Inputs {
    /// Files inside the bundle root it read (outside `node_modules`), bundle-relative, sorted.
    pub files: Vec<String>,
    /// Files outside the bundle root it read (outside `node_modules`), relative to the bundle root
    /// (`../../tsconfig.base.json`), sorted.
    pub outside: Vec<String>,
    /// The lockfiles that pin the installed packages it read, relative to the bundle root, sorted.
    pub lockfiles: Vec<String>,
    /// The installed packages it read, `name@version`, sorted.
    pub packages: Vec<String>,
    /// Environment variables whose value changes the output: none (resolution ignores `NODE_PATH`,
    /// and no variable reaches the artifact).
    pub env: Vec<String>,
    pub compiler: Compiler,
    /// What the build writes, relative to the bundle root: its output folder.
    pub outputs: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Compiler {
    pub version: String,
    /// [`crate::artifact::compiler_id`]: the version, the compiler's sources and the host tables.
    pub id: String,
}

/// Builds the bundle at `root` into a throw-away folder and sorts what the build read. Errors are the
/// build's, rendered.
pub fn inputs(root: &Utf8Path, disk: &dyn Disk) -> Result<Inputs, String> {
    let canonical = disk.canonicalize(root).ok_or_else(|| format!("`{root}` is not a folder"))?;
    let built = build_throwaway(root, disk)?;
    let (output, report) = (&built.output, &built.report);
    if let Some(errors) = report.rendered_errors() {
        return Err(format!("the bundle does not build, so what it reads is unknown:\n{errors}"));
    }
    let mut found = Classified::default();
    for path in report.inputs.iter().filter(|p| disk.is_file(p)) {
        if path.starts_with(output) {
            continue;
        }
        found.add(path, &canonical, disk);
    }
    Ok(Inputs {
        files: found.files.into_iter().collect(),
        outside: found.outside.into_iter().collect(),
        lockfiles: found.lockfiles.into_iter().collect(),
        packages: found.packages.into_iter().collect(),
        env: Vec::new(),
        compiler: Compiler { version: env!("CARGO_PKG_VERSION").to_string(), id: crate::artifact::compiler_id() },
        outputs: vec!["artifact".to_string()],
    })
}

#[derive(Default)]
struct Classified {
    files: BTreeSet<String>,
    outside: BTreeSet<String>,
    lockfiles: BTreeSet<String>,
    packages: BTreeSet<String>,
}

impl Classified {
    fn add(&mut self, path: &Utf8Path, root: &Utf8Path, disk: &dyn Disk) {
        let relative = crate::io::relative_with_dots(path, root).to_string();
        match path.as_str().rfind("/node_modules/") {
            Some(at) => {
                let holder = Utf8Path::new(&path.as_str()[..at]);
                if let Some(lockfile) = lockfile_above(holder, disk) {
                    self.lockfiles.insert(crate::io::relative_with_dots(&lockfile, root).to_string());
                }
                if let Some(package) = package_of(path, at, disk) {
                    self.packages.insert(package);
                }
            }
            None if path.starts_with(root) => {
                self.files.insert(relative);
            }
            None => {
                self.outside.insert(relative);
            }
        }
    }
}

/// The nearest lockfile at or above `dir`.
fn lockfile_above(dir: &Utf8Path, disk: &dyn Disk) -> Option<Utf8PathBuf> {
    dir.ancestors().find_map(|folder| LOCKFILES.iter().map(|name| folder.join(name)).find(|file| disk.is_file(file)))
}

/// `name@version` of the installed package holding `path` (whose last `/node_modules/` is at `at`).
fn package_of(path: &Utf8Path, at: usize, disk: &dyn Disk) -> Option<String> {
    let after = &path.as_str()[at + "/node_modules/".len()..];
    let mut parts = after.split('/');
    let first = parts.next()?;
    let name = if first.starts_with('@') { format!("{first}/{}", parts.next()?) } else { first.to_string() };
    let manifest = Utf8Path::new(&path.as_str()[..at]).join("node_modules").join(&name).join("package.json");
    let text = disk.read_to_string(&manifest).ok()?;
    let version = serde_json::from_str::<Value>(&text).ok()?.get("version")?.as_str()?.to_string();
    Some(format!("{name}@{version}"))
}

/// A path relative to the bundle (`../../tsconfig.base.json`) as a path relative to the workspace
/// root, the bundle being at `bundle` in it; `None` when it leads out of the workspace.
fn from_workspace(bundle: &Utf8Path, relative: &str) -> Option<String> {
    let mut parts: Vec<&str> = bundle.as_str().split('/').filter(|p| !p.is_empty()).collect();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            name => parts.push(name),
        }
    }
    Some(parts.join("/"))
}

/// The files outside the bundle an engine must hash besides the bundle's own folder, relative to the
/// workspace root: the outside files and the lockfiles. `None` when one lies outside the workspace.
fn workspace_inputs(inputs: &Inputs, bundle: &Utf8Path) -> Result<Vec<String>, String> {
    inputs
        .outside
        .iter()
        .chain(&inputs.lockfiles)
        .map(|relative| {
            from_workspace(bundle, relative).ok_or_else(|| {
                format!(
                    "the build reads `{relative}`, outside the workspace root: no engine of the workspace can hash it"
                )
            })
        })
        .collect()
}

/// The Turborepo task of a bundle at `bundle` (relative to the workspace root): the package's own
/// files (`$TURBO_DEFAULT$`, less the artifact it writes), each file outside it by its path from the
/// workspace root, the compiler through [`COMPILER_VARIABLE`], and the artifact as the output.
pub fn turbo_task(inputs: &Inputs, bundle: &Utf8Path) -> Result<Value, String> {
    let mut declared = vec!["$TURBO_DEFAULT$".to_string()];
    declared.extend(inputs.outputs.iter().map(|o| format!("!{o}/**")));
    declared.extend(workspace_inputs(inputs, bundle)?.into_iter().map(|p| format!("$TURBO_ROOT$/{p}")));
    let outputs: Vec<String> = inputs.outputs.iter().map(|o| format!("{o}/**")).collect();
    Ok(json!({ "inputs": declared, "outputs": outputs, "env": [COMPILER_VARIABLE] }))
}

/// The Nx target of a bundle at `bundle` (relative to the workspace root): the project's files less
/// the artifact, each file outside it from the workspace root, the compiler as a runtime input, and
/// the artifact as the output.
pub fn nx_target(inputs: &Inputs, bundle: &Utf8Path) -> Result<Value, String> {
    let mut declared: Vec<Value> = vec![json!("{projectRoot}/**/*")];
    declared.extend(inputs.outputs.iter().map(|o| json!(format!("!{{projectRoot}}/{o}/**/*"))));
    declared.extend(workspace_inputs(inputs, bundle)?.into_iter().map(|p| json!(format!("{{workspaceRoot}}/{p}"))));
    declared.push(json!({ "runtime": format!("{PROGRAM} inspect --compiler-id") }));
    let outputs: Vec<String> = inputs.outputs.iter().map(|o| format!("{{projectRoot}}/{o}")).collect();
    Ok(json!({
        "command": format!("{PROGRAM} build"),
        "options": { "cwd": "{projectRoot}" },
        "cache": true,
        "inputs": declared,
        "outputs": outputs,
    }))
}

/// `inspect --inputs --json`: the inputs and outputs, and the engines' configuration for the bundle
/// (each `null` with the reason where one cannot be written).
pub fn to_json(inputs: &Inputs, bundle: &Utf8Path) -> Value {
    let engine = |made: Result<Value, String>| made.unwrap_or_else(|reason| json!({ "unsupported": reason }));
    json!({
        "bundle": if bundle.as_str().is_empty() { "." } else { bundle.as_str() },
        "inputs": {
            "files": inputs.files,
            "outside": inputs.outside,
            "lockfiles": inputs.lockfiles,
            "packages": inputs.packages,
            "env": inputs.env,
            "compiler": inputs.compiler,
        },
        "outputs": inputs.outputs,
        "turbo": engine(turbo_task(inputs, bundle)),
        "nx": engine(nx_target(inputs, bundle)),
    })
}

/// The text form of `inspect --inputs`.
pub fn render(inputs: &Inputs, bundle: &Utf8Path) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let section = |out: &mut String, title: &str, items: &[String]| {
        let _ = writeln!(out, "{title} ({})", items.len());
        for item in items {
            let _ = writeln!(out, "  {item}");
        }
    };
    section(&mut out, "files read in the bundle", &inputs.files);
    section(&mut out, "files read outside it", &inputs.outside);
    section(&mut out, "lockfiles of the packages read", &inputs.lockfiles);
    section(&mut out, "packages read", &inputs.packages);
    let _ = writeln!(out, "environment variables that change the output: none");
    let _ = writeln!(out, "compiler {} (id {})", inputs.compiler.version, inputs.compiler.id);
    section(&mut out, "outputs", &inputs.outputs);
    let where_ = if bundle.as_str().is_empty() { ".".to_string() } else { bundle.to_string() };
    let _ = writeln!(out, "bundle {where_} in its workspace; `--json` adds the Turborepo task and the Nx target");
    out
}

#[cfg(test)]
mod tests {
    use super::from_workspace;
    use camino::Utf8Path;

    #[test]
    fn bundle_relative_paths_become_workspace_relative_or_none_outside_it() {
        let bundle = Utf8Path::new("bundles/alpha");
        assert_eq!(from_workspace(bundle, "../../tsconfig.base.json").as_deref(), Some("tsconfig.base.json"));
        assert_eq!(from_workspace(bundle, "../beta/x.ts").as_deref(), Some("bundles/beta/x.ts"));
        assert_eq!(from_workspace(bundle, "../../../elsewhere.json"), None);
        assert_eq!(from_workspace(Utf8Path::new(""), "x/y.json").as_deref(), Some("x/y.json"));
    }
}
