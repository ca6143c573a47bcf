//! The handler module graph: every handler, every relative module it imports (transitively), and
//! the npm packages they import. Modules are compiled into `hooks/handlers/` mirroring their place in
//! the bundle; packages are copied into `hooks/node_modules/`, where Node's resolution finds them
//! from every compiled module.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

use camino::{Utf8Path, Utf8PathBuf};

use super::{CompiledModule, ImportRef, compile_module};
use crate::diagnostic::{Diagnostic, messages};
use crate::digest::sha256_hex;
use crate::io::{CacheStore, Lookup};
use crate::io::{Disk, lexical_join, relative_to};
use crate::source::{Location, SourceFile};

/// Where compiled handler modules go in the artifact.
pub const HANDLERS_DIR: &str = "hooks/handlers";
/// Where carried npm packages go in the artifact.
pub const PACKAGES_DIR: &str = "hooks/node_modules";

/// Extensions tried, in order, for an extension-less relative import.
const MODULE_EXTENSIONS: &[&str] = &["ts", "tsx", "mts", "js", "jsx", "mjs"];

/// Node's built-in modules, importable without the `node:` prefix.
const NODE_BUILTINS: &[&str] = &[
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "console",
    "constants",
    "crypto",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "punycode",
    "querystring",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "sys",
    "timers",
    "tls",
    "trace_events",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "wasi",
    "worker_threads",
    "zlib",
];

/// A handler to compile: its root-relative path and where the config declares it.
pub struct HandlerEntry {
    pub path: String,
    pub declared_at: Location,
}

#[derive(Debug, Default)]
pub struct CompiledHandlers {
    /// Artifact-relative path → bytes, for compiled modules and carried package files.
    pub files: BTreeMap<String, Vec<u8>>,
    /// Handler path → artifact path of its compiled module.
    pub entries: BTreeMap<String, String>,
    /// Handler path → every source it pulls in, with the SHA-256 of its bytes: root-relative module
    /// paths, and `node_modules/<name>` for each npm package (a digest over all its files).
    pub inputs: BTreeMap<String, BTreeMap<String, String>>,
    pub stats: CompileStats,
    /// The module sources read, for rendering diagnostics that point into them.
    pub sources: Vec<SourceFile>,
    /// Every npm package folder carried into the artifact, with the digest of its carried files.
    pub package_digests: BTreeMap<Utf8PathBuf, String>,
}

/// The artifact path of the compiled form of a root-relative module path.
pub fn compiled_path(module: &str) -> String {
    let stem = module.rsplit_once('.').map_or(module, |(stem, _)| stem);
    format!("{HANDLERS_DIR}/{stem}.mjs")
}

/// What an import specifier leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Resolved {
    /// A module of the bundle (root-relative path).
    Module(String),
    /// An npm package, found in this `node_modules` folder.
    Package(String, Utf8PathBuf),
    /// A Node built-in: left as written.
    Builtin,
}

impl Resolved {
    /// A stable text form, kept in the cache to check a cached module's imports still resolve alike.
    fn describe(&self) -> String {
        match self {
            Resolved::Module(path) => format!("module:{path}"),
            Resolved::Package(name, dir) => format!("package:{name}:{dir}"),
            Resolved::Builtin => "builtin".to_string(),
        }
    }
}

/// Counts of how modules were obtained, for `--explain` and the benchmark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CompileStats {
    pub compiled: usize,
    pub cached: usize,
    /// Cache entries found corrupt (and replaced).
    pub corrupt: usize,
}

pub fn compile_handlers(
    root: &Utf8Path,
    handlers: &[HandlerEntry],
    disk: &dyn Disk,
    cache: Option<&CacheStore>,
) -> (CompiledHandlers, Vec<Diagnostic>) {
    let mut out = CompiledHandlers::default();
    let mut diagnostics = Vec::new();
    // Module → the modules and packages it imports directly.
    let mut module_edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut package_edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut module_hashes: BTreeMap<String, String> = BTreeMap::new();
    let mut packages: BTreeMap<String, Utf8PathBuf> = BTreeMap::new();
    let mut queue: VecDeque<String> = handlers.iter().map(|h| h.path.clone()).collect();
    let mut seen: BTreeSet<String> = queue.iter().cloned().collect();
    let generator = crate::emit::compiler_fingerprint();

    while let Some(module) = queue.pop_front() {
        let absolute = lexical_join(root, &module);
        let text = match disk.read_to_string(&absolute) {
            Ok(text) => text,
            Err(error) => {
                let at = handlers.iter().find(|h| h.path == module).map(|h| h.declared_at.clone());
                diagnostics.push(
                    messages::handler_syntax_error(
                        &format!("cannot read `{module}`: {error}"),
                        &unknown_location(&module),
                    )
                    .at(at.as_ref(), "declared here"),
                );
                continue;
            }
        };
        module_hashes.insert(module.clone(), sha256_hex(text.as_bytes()));
        let key = sha256_hex(format!("{generator}\0{module}\0{text}").as_bytes());
        let file = SourceFile::new(module.clone(), text);
        let module_dir = absolute.parent().map(Utf8Path::to_path_buf).unwrap_or_else(|| root.to_path_buf());
        let errors_before = diagnostics.len();
        let resolutions: RefCell<Vec<(ImportRef, Resolved)>> = RefCell::new(Vec::new());
        let resolve = |import: &ImportRef, diagnostics: &mut Vec<Diagnostic>| -> Option<Resolved> {
            let resolved = resolve_import(root, &module_dir, import, &file, disk);
            match resolved {
                Ok(resolved) => {
                    resolutions.borrow_mut().push((import.clone(), resolved.clone()));
                    Some(resolved)
                }
                Err(diagnostic) => {
                    diagnostics.push(diagnostic);
                    None
                }
            }
        };

        let cached = cache.map(|c| (c, c.read("modules", &key)));
        let reused = match &cached {
            Some((_, Lookup::Hit(entry))) => reuse_cached(entry, &mut |import| resolve(import, &mut diagnostics)),
            _ => None,
        };
        let compiled = match reused {
            Some(compiled) => {
                out.stats.cached += 1;
                Some(compiled)
            }
            None => {
                resolutions.borrow_mut().clear();
                if matches!(cached, Some((_, Lookup::Corrupt))) {
                    out.stats.corrupt += 1;
                }
                let mut rewrite = |import: &ImportRef| -> Option<String> {
                    match resolve(import, &mut diagnostics)? {
                        Resolved::Module(relative) => {
                            Some(relative_specifier(&compiled_path(&module), &compiled_path(&relative)))
                        }
                        Resolved::Package(..) | Resolved::Builtin => None,
                    }
                };
                match compile_module(&file, &mut rewrite) {
                    Ok(compiled) => {
                        out.stats.compiled += 1;
                        if let (Some(store), true) = (cache, diagnostics.len() == errors_before) {
                            store.write("modules", &key, &cache_entry(&compiled, &resolutions.borrow()));
                        }
                        Some(compiled)
                    }
                    Err(errors) => {
                        for (message, span) in errors.0 {
                            diagnostics.push(messages::handler_syntax_error(&message, &file.locate(span)));
                        }
                        None
                    }
                }
            }
        };

        let mut imported_modules = BTreeSet::new();
        let mut imported_packages = BTreeSet::new();
        for (_, resolved) in resolutions.borrow().iter() {
            match resolved {
                Resolved::Module(relative) => {
                    imported_modules.insert(relative.clone());
                }
                Resolved::Package(name, dir) => {
                    packages.entry(name.clone()).or_insert_with(|| dir.clone());
                    imported_packages.insert(name.clone());
                }
                Resolved::Builtin => {}
            }
        }
        if let Some(compiled) = compiled {
            if let Some(handler) = handlers.iter().find(|h| h.path == module) {
                if !compiled.has_default_export {
                    diagnostics.push(messages::handler_without_default_export(&module, &handler.declared_at));
                }
            }
            let mut code = compiled.code;
            if !code.ends_with('\n') {
                code.push('\n');
            }
            out.files.insert(compiled_path(&module), code.into_bytes());
        }
        for next in &imported_modules {
            if seen.insert(next.clone()) {
                queue.push_back(next.clone());
            }
        }
        module_edges.insert(module.clone(), imported_modules);
        package_edges.insert(module, imported_packages);
        out.sources.push(file);
    }

    let Carried { closure: package_dirs, hashes: package_hashes, digests } =
        carry_packages(&packages, &mut out.files, disk, &mut diagnostics);
    out.package_digests = digests;

    for handler in handlers {
        out.entries.insert(handler.path.clone(), compiled_path(&handler.path));
        let mut inputs = BTreeMap::new();
        let mut stack = vec![handler.path.clone()];
        while let Some(module) = stack.pop() {
            if inputs.contains_key(&module) {
                continue;
            }
            inputs.insert(module.clone(), module_hashes.get(&module).cloned().unwrap_or_default());
            stack.extend(module_edges.get(&module).into_iter().flatten().cloned());
            for package in package_edges.get(&module).into_iter().flatten() {
                for name in package_dirs.get(package).into_iter().flatten() {
                    inputs
                        .insert(format!("node_modules/{name}"), package_hashes.get(name).cloned().unwrap_or_default());
                }
            }
        }
        out.inputs.insert(handler.path.clone(), inputs);
    }
    (out, diagnostics)
}

/// The cache entry of a compiled module: its code and how each of its imports resolved.
fn cache_entry(compiled: &CompiledModule, resolutions: &[(ImportRef, Resolved)]) -> serde_json::Value {
    let imports: Vec<serde_json::Value> = resolutions
        .iter()
        .map(|(import, resolved)| {
            serde_json::json!({
                "specifier": import.specifier,
                "start": import.span.start,
                "end": import.span.end,
                "resolved": resolved.describe(),
            })
        })
        .collect();
    serde_json::json!({ "code": compiled.code, "hasDefaultExport": compiled.has_default_export, "imports": imports })
}

/// A cached module, when every import it recorded still resolves to the same place.
fn reuse_cached(
    entry: &serde_json::Value,
    resolve: &mut dyn FnMut(&ImportRef) -> Option<Resolved>,
) -> Option<CompiledModule> {
    let code = entry["code"].as_str()?.to_string();
    let has_default_export = entry["hasDefaultExport"].as_bool()?;
    for import in entry["imports"].as_array()? {
        let reference = ImportRef {
            specifier: import["specifier"].as_str()?.to_string(),
            span: crate::source::Span::new(import["start"].as_u64()? as u32, import["end"].as_u64()? as u32),
        };
        if resolve(&reference)?.describe() != import["resolved"].as_str()? {
            return None;
        }
    }
    Some(CompiledModule { code, has_default_export })
}

/// Where an import leads, or the diagnostic that says why it leads nowhere.
fn resolve_import(
    root: &Utf8Path,
    module_dir: &Utf8Path,
    import: &ImportRef,
    file: &SourceFile,
    disk: &dyn Disk,
) -> Result<Resolved, Diagnostic> {
    let at = file.locate(import.span);
    let specifier = import.specifier.as_str();
    if specifier.starts_with("./") || specifier.starts_with("../") || specifier == "." || specifier == ".." {
        let target = lexical_join(module_dir, specifier);
        if relative_to(&target, root).is_none() {
            return Err(messages::import_outside_root(specifier, &at));
        }
        let resolved = resolve_relative(&target, disk).ok_or_else(|| messages::unresolved_import(specifier, &at))?;
        let relative = relative_to(&resolved, root).ok_or_else(|| messages::import_outside_root(specifier, &at))?;
        if !is_module(&relative) {
            return Err(messages::unsupported_import(specifier, &at));
        }
        Ok(Resolved::Module(relative))
    } else if specifier.starts_with("node:") || NODE_BUILTINS.contains(&specifier.split('/').next().unwrap_or("")) {
        Ok(Resolved::Builtin)
    } else if specifier.starts_with('/') || specifier.contains(':') {
        Err(messages::unsupported_import(specifier, &at))
    } else {
        let name = messages::package_name(specifier);
        find_package(module_dir, name, disk)
            .map(|dir| Resolved::Package(name.to_string(), dir))
            .ok_or_else(|| messages::unresolved_import(specifier, &at))
    }
}

fn unknown_location(file: &str) -> Location {
    Location { file: file.into(), line: 1, column: 1, span: Default::default() }
}

fn is_module(path: &str) -> bool {
    path.rsplit_once('.').is_some_and(|(_, ext)| MODULE_EXTENSIONS.contains(&ext))
}

/// A relative import's file: as written, with a TypeScript source standing in for a `.js` specifier
/// (TypeScript's ESM convention), with each module extension appended, or a folder's `index`.
fn resolve_relative(target: &Utf8Path, disk: &dyn Disk) -> Option<Utf8PathBuf> {
    if disk.is_file(target) {
        return Some(target.to_path_buf());
    }
    let text = target.as_str();
    for (js, ts) in [(".js", ".ts"), (".js", ".tsx"), (".mjs", ".mts"), (".jsx", ".tsx")] {
        if let Some(stem) = text.strip_suffix(js) {
            let candidate = Utf8PathBuf::from(format!("{stem}{ts}"));
            if disk.is_file(&candidate) {
                return Some(candidate);
            }
        }
    }
    for ext in MODULE_EXTENSIONS {
        let candidate = Utf8PathBuf::from(format!("{text}.{ext}"));
        if disk.is_file(&candidate) {
            return Some(candidate);
        }
    }
    if disk.is_dir(target) {
        for ext in MODULE_EXTENSIONS {
            let candidate = target.join(format!("index.{ext}"));
            if disk.is_file(&candidate) {
                return Some(candidate);
            }
        }
    }
    None
}

/// `node_modules/<name>` as Node would find it from `dir`: in `dir` or the nearest ancestor.
fn find_package(dir: &Utf8Path, name: &str, disk: &dyn Disk) -> Option<Utf8PathBuf> {
    dir.ancestors()
        .map(|ancestor| ancestor.join("node_modules").join(name))
        .find(|candidate| disk.is_file(&candidate.join("package.json")))
}

/// What carrying npm packages into the artifact found.
struct Carried {
    /// Per package a handler imports directly: every package it brings along (itself included).
    closure: BTreeMap<String, Vec<String>>,
    /// Per carried package: a digest over its files.
    hashes: BTreeMap<String, String>,
    /// Every carried package's folder, with its digest.
    digests: BTreeMap<Utf8PathBuf, String>,
}

/// Copies each package, and the dependencies it declares, into [`PACKAGES_DIR`].
fn carry_packages(
    direct: &BTreeMap<String, Utf8PathBuf>,
    files: &mut BTreeMap<String, Vec<u8>>,
    disk: &dyn Disk,
    diagnostics: &mut Vec<Diagnostic>,
) -> Carried {
    let mut carried: BTreeMap<String, Utf8PathBuf> = BTreeMap::new();
    let mut closure: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (name, dir) in direct {
        let mut brought: Vec<String> = Vec::new();
        let mut visited: Vec<Utf8PathBuf> = Vec::new();
        let mut stack = vec![(name.clone(), dir.clone())];
        while let Some((name, dir)) = stack.pop() {
            if visited.contains(&dir) {
                continue;
            }
            visited.push(dir.clone());
            brought.push(name.clone());
            if let Some(existing) = carried.get(&name) {
                if existing != &dir {
                    diagnostics.push(messages::package_unreadable(
                        &name,
                        &format!("two installed copies are needed (`{existing}` and `{dir}`)"),
                    ));
                }
                continue;
            }
            carried.insert(name.clone(), dir.clone());
            match package_dependencies(&dir, disk) {
                Ok(dependencies) => {
                    for (dependency, optional) in dependencies {
                        // A dependency nested in the package's own node_modules travels with it.
                        if disk.is_file(&dir.join("node_modules").join(&dependency).join("package.json")) {
                            continue;
                        }
                        match dir.parent().and_then(|parent| find_package(parent, &dependency, disk)) {
                            Some(found) => stack.push((dependency, found)),
                            None if optional => {}
                            None => diagnostics.push(messages::package_unreadable(
                                &name,
                                &format!("its dependency `{dependency}` is not installed"),
                            )),
                        }
                    }
                }
                Err(detail) => diagnostics.push(messages::package_unreadable(&name, &detail)),
            }
        }
        closure.insert(name.clone(), brought);
    }
    let mut hashes = BTreeMap::new();
    for (name, dir) in &carried {
        let mut hasher = crate::digest::Sha256Hex::new();
        match disk.walk_files(dir) {
            Ok(paths) => {
                for path in paths.iter().filter(|p| carried_file(p)) {
                    match disk.read(&dir.join(path)) {
                        Ok(bytes) => {
                            hasher.update(path.as_bytes());
                            hasher.update(&[0]);
                            hasher.update(sha256_hex(&bytes).as_bytes());
                            files.insert(format!("{PACKAGES_DIR}/{name}/{path}"), bytes);
                        }
                        Err(error) => diagnostics.push(messages::package_unreadable(name, &format!("{path}: {error}"))),
                    }
                }
            }
            Err(error) => diagnostics.push(messages::package_unreadable(name, &error.to_string())),
        }
        hashes.insert(name.clone(), hasher.finish());
    }
    let digests = carried.iter().map(|(name, dir)| (dir.clone(), hashes[name].clone())).collect();
    Carried { closure, hashes, digests }
}

/// Whether a file of a package folder travels with the package (its `.bin` links and npm's lock
/// bookkeeping do not). Package digests cover exactly these files.
pub fn carried_file(path: &str) -> bool {
    !path.starts_with("node_modules/.bin/") && path != ".package-lock.json"
}

/// The packages `package.json` says this one needs at run time, with whether each is optional.
fn package_dependencies(dir: &Utf8Path, disk: &dyn Disk) -> Result<Vec<(String, bool)>, String> {
    let text = disk.read_to_string(&dir.join("package.json")).map_err(|e| format!("package.json: {e}"))?;
    let manifest: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("package.json is not valid JSON: {e}"))?;
    let mut dependencies = Vec::new();
    for (key, optional) in [("dependencies", false), ("optionalDependencies", true), ("peerDependencies", true)] {
        if let Some(object) = manifest.get(key).and_then(|v| v.as_object()) {
            dependencies.extend(object.keys().map(|name| (name.clone(), optional)));
        }
    }
    Ok(dependencies)
}

/// The import specifier leading from one artifact file to another (`./x.mjs`, `../lib/y.mjs`).
pub fn relative_specifier(from_file: &str, to_file: &str) -> String {
    let from_dirs: Vec<&str> = from_file.split('/').collect::<Vec<_>>()[..from_file.split('/').count() - 1].to_vec();
    let to_parts: Vec<&str> = to_file.split('/').collect();
    let common = from_dirs.iter().zip(&to_parts).take_while(|(a, b)| a == b).count();
    let ups = from_dirs.len() - common;
    let rest = to_parts[common..].join("/");
    if ups == 0 { format!("./{rest}") } else { format!("{}{rest}", "../".repeat(ups)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_specifiers_between_artifact_files() {
        assert_eq!(relative_specifier("hooks/handlers/src/hooks/a.mjs", "hooks/handlers/src/hooks/b.mjs"), "./b.mjs");
        assert_eq!(
            relative_specifier("hooks/handlers/src/hooks/a.mjs", "hooks/handlers/src/lib/util.mjs"),
            "../lib/util.mjs"
        );
        assert_eq!(relative_specifier("hooks/x.claude.mjs", "hooks/handlers/src/a.mjs"), "./handlers/src/a.mjs");
        assert_eq!(compiled_path("src/hooks/a.tsx"), "hooks/handlers/src/hooks/a.mjs");
    }
}
