//! What of an installed package a plugin ships: what the package needs at run time, not what built
//! it. An installed package holds what it published plus what its install produced (a native
//! addon's whole `node-gyp` build: objects, Makefiles, a copy of the C sources); only the first,
//! and of the second only the compiled binaries, run.
//!
//! The rule, for a package-relative path, first match wins:
//! 1. the targets of `main` (default `index`), `bin`, `exports` and `imports` (every condition)
//!    ship, with the extensions Node tries and everything below a folder target;
//! 2. what npm never publishes is left out: version-control folders, `.npmignore`/`.gitignore`,
//!    `.npmrc`, editor and OS leftovers, `npm-debug.log`, the root's lockfiles, waf and gyp cruft;
//! 3. compiled binaries ship: `*.node`, shared libraries (`*.so`, `*.so.*`, `*.dylib`, `*.dll`) and
//!    everything under `prebuilds/` (but node-gyp's intermediate copies in `build/**/obj.target/`
//!    and `build/**/obj/`, which no loader looks in);
//! 4. for a package that builds an addon (`binding.gyp`, `gypfile`), what building needs is left
//!    out: everything else under `build/` (node-gyp's folder), C and C++ sources and headers,
//!    `.gyp`/`.gypi` files, Makefiles, object files and static libraries, wherever they are;
//! 5. the root's package.json, README, LICENSE/LICENCE, COPYING and NOTICE files ship;
//! 6. with a `files` list, what it matches ships (gitignore-style globs, a folder with what it
//!    holds, `!` excluding, the last matching entry deciding) and the rest is left out; without
//!    one, everything ships.
//!
//! Where it cannot be sure (a `files` entry that does not parse) it ships more, never less.

use globset::{GlobBuilder, GlobMatcher};
use serde_json::Value;

/// A package's run-time closure, from its package.json.
#[derive(Debug)]
pub(super) struct Closure {
    entries: Vec<Target>,
    files: Option<Vec<FilesRule>>,
    builds_addon: bool,
}

/// An entry-point target: a file, a folder (`lib/`), or a subpath pattern (`./lib/*.js`).
#[derive(Debug, PartialEq, Eq)]
enum Target {
    Path(String),
    Folder(String),
    Pattern(String, String),
}

#[derive(Debug)]
struct FilesRule {
    exclude: bool,
    matchers: Vec<GlobMatcher>,
}

impl Closure {
    /// `manifest` is the package.json; `has_binding_gyp` whether `binding.gyp` is at its root.
    pub fn of(manifest: &Value, has_binding_gyp: bool) -> Closure {
        let mut entries = Vec::new();
        match manifest.get("main").and_then(Value::as_str) {
            Some(main) => entries.extend(target(main)),
            None => entries.push(Target::Path("index".to_string())),
        }
        match manifest.get("bin") {
            Some(Value::String(bin)) => entries.extend(target(bin)),
            Some(Value::Object(bins)) => entries.extend(bins.values().filter_map(Value::as_str).filter_map(target)),
            _ => {}
        }
        if let Some(exports) = manifest.get("exports") {
            collect_targets(exports, &mut entries);
        }
        if let Some(Value::Object(imports)) = manifest.get("imports") {
            let mut found = Vec::new();
            for value in imports.values() {
                collect_targets(value, &mut found);
            }
            // Only relative targets: the others name packages.
            entries.extend(found);
        }
        let files = manifest.get("files").and_then(Value::as_array).and_then(|list| files_rules(list));
        let builds_addon = has_binding_gyp || manifest.get("gypfile").and_then(Value::as_bool) == Some(true);
        Closure { entries, files, builds_addon }
    }

    /// Whether the entry at `path` (package-relative, `/`-separated) is left out. A folder is left
    /// out whole only when nothing in it could ship (version-control folders); others are decided
    /// file by file.
    pub fn leaves_out(&self, path: &str, is_dir: bool) -> bool {
        if is_dir {
            let name = path.rsplit('/').next().unwrap_or(path);
            return [".git", ".svn", ".hg", "CVS"].contains(&name) && !self.is_entry(path);
        }
        if self.is_entry(path) {
            return false;
        }
        if never_published(path) {
            return true;
        }
        // node-gyp's object folders hold intermediate copies of the addon, which nothing loads.
        let intermediate =
            path.starts_with("build/") && path.split('/').any(|part| part == "obj" || part == "obj.target");
        if is_binary(path) && !(self.builds_addon && intermediate) {
            return false;
        }
        if self.builds_addon && (path.starts_with("build/") || builds_only(path)) {
            return true;
        }
        if always_published(path) {
            return false;
        }
        match &self.files {
            Some(rules) => !files_include(rules, path),
            None => false,
        }
    }

    fn is_entry(&self, path: &str) -> bool {
        self.entries.iter().any(|entry| match entry {
            Target::Path(file) => {
                path == file
                    || path.strip_prefix(file.as_str()).is_some_and(|rest| {
                        rest.starts_with('/') || [".js", ".json", ".node", ".cjs", ".mjs"].contains(&rest)
                    })
            }
            Target::Folder(folder) => path.starts_with(folder.as_str()),
            Target::Pattern(prefix, suffix) => {
                path.len() >= prefix.len() + suffix.len()
                    && path.starts_with(prefix.as_str())
                    && path.ends_with(suffix.as_str())
            }
        })
    }
}

/// Every string target under an `exports` or `imports` value (conditions, arrays, subpaths).
fn collect_targets(value: &Value, out: &mut Vec<Target>) {
    match value {
        Value::String(text) if text.starts_with("./") => out.extend(target(text)),
        Value::Array(items) => items.iter().for_each(|item| collect_targets(item, out)),
        Value::Object(map) => map.values().for_each(|item| collect_targets(item, out)),
        _ => {}
    }
}

fn target(written: &str) -> Option<Target> {
    let mut path = written.trim();
    while let Some(rest) = path.strip_prefix("./") {
        path = rest;
    }
    let path = path.trim_start_matches('/');
    if path.split('/').any(|part| part == "..") {
        return None;
    }
    if let Some((prefix, suffix)) = path.split_once('*') {
        return Some(Target::Pattern(prefix.to_string(), suffix.to_string()));
    }
    if path.is_empty() || path == "." {
        return Some(Target::Path("index".to_string()));
    }
    match path.strip_suffix('/') {
        Some(folder) => Some(Target::Folder(format!("{folder}/"))),
        None => Some(Target::Path(path.to_string())),
    }
}

/// The `files` list as rules; `None` (ship everything) when an entry cannot be read.
fn files_rules(list: &[Value]) -> Option<Vec<FilesRule>> {
    let mut rules = Vec::new();
    for entry in list {
        let written = entry.as_str()?.trim();
        let (exclude, pattern) = match written.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, written),
        };
        let mut pattern = pattern;
        while let Some(rest) = pattern.strip_prefix("./") {
            pattern = rest;
        }
        let anchored = pattern.starts_with('/') || pattern.trim_end_matches('/').contains('/');
        let pattern = pattern.trim_start_matches('/').trim_end_matches('/');
        if pattern.is_empty() {
            continue;
        }
        let glob = |text: &str| {
            let glob = GlobBuilder::new(text).literal_separator(true).backslash_escape(true).build().ok()?;
            Some(glob.compile_matcher())
        };
        let mut matchers = vec![glob(pattern)?];
        // As in .gitignore, a pattern without a slash matches at any depth.
        if !anchored {
            matchers.push(glob(&format!("**/{pattern}"))?);
        }
        rules.push(FilesRule { exclude, matchers });
    }
    Some(rules)
}

/// Whether the `files` rules take `path`: the last rule matching it or a folder above it decides.
fn files_include(rules: &[FilesRule], path: &str) -> bool {
    let mut prefixes = Vec::new();
    let mut end = 0;
    for part in path.split('/') {
        end += part.len();
        prefixes.push(&path[..end]);
        end += 1;
    }
    let mut included = false;
    for rule in rules {
        // A rule naming a folder takes (or excludes) everything in it.
        if rule.matchers.iter().any(|m| prefixes.iter().any(|prefix| m.is_match(prefix))) {
            included = !rule.exclude;
        }
    }
    included
}

/// What npm never publishes (npm-packlist's default rules).
fn never_published(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let top = !path.contains('/');
    [".npmignore", ".gitignore", ".npmrc", ".DS_Store", "npm-debug.log"].contains(&name)
        || (name.starts_with('.') && name.ends_with(".swp"))
        || name.starts_with("._")
        || name.ends_with(".orig")
        || path.split('/').any(|part| [".git", ".svn", ".hg", "CVS"].contains(&part))
        || (top
            && (["package-lock.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", ".lock-wscript"].contains(&name)
                || name.starts_with(".wafpickle-")))
        || path == "build/config.gypi"
}

/// A compiled binary Node or an addon loads.
fn is_binary(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.starts_with("prebuilds/")
        || name.ends_with(".node")
        || name.ends_with(".so")
        || name.contains(".so.")
        || name.ends_with(".dylib")
        || name.ends_with(".dll")
}

/// What only building a native addon reads: C and C++ sources and headers, gyp files, Makefiles,
/// objects and static libraries.
fn builds_only(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    const EXTENSIONS: &[&str] = &[
        "c", "cc", "cpp", "cxx", "c++", "h", "hh", "hpp", "hxx", "h++", "ipp", "inl", "gyp", "gypi", "mk", "o", "obj",
        "a", "lib",
    ];
    name == "Makefile"
        || name.rsplit_once('.').is_some_and(|(stem, extension)| !stem.is_empty() && EXTENSIONS.contains(&extension))
}

/// The files npm publishes whatever `files` says: the root's package.json, README, LICENSE,
/// LICENCE and COPYING (any extension, any case), and NOTICE (which Apache-2.0 asks to ship).
fn always_published(path: &str) -> bool {
    if path.contains('/') {
        return false;
    }
    if path == "package.json" {
        return true;
    }
    let stem = path.split('.').next().unwrap_or(path).to_ascii_lowercase();
    ["readme", "license", "licence", "copying", "notice"].contains(&stem.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shipped(manifest: Value, gyp: bool, paths: &[&str]) -> Vec<String> {
        let closure = Closure::of(&manifest, gyp);
        paths.iter().filter(|p| !closure.leaves_out(p, false)).map(|p| p.to_string()).collect()
    }

    #[test]
    fn files_main_bin_and_every_exports_condition_ship() {
        let manifest = json!({
            "main": "./lib/main",
            "bin": { "tool": "./bin/tool.js" },
            "files": ["dist/", "*.md", "!dist/**/*.test.js"],
            "exports": {
                ".": { "node": { "import": "./esm/index.mjs", "require": "./cjs/index.cjs" }, "default": "./esm/index.mjs" },
                "./features/*": "./features/*.js",
                "./data/": "./data/"
            },
            "imports": { "#internal": "./internal/x.js", "#dep": "some-package" }
        });
        let paths = [
            "package.json",
            "README.md",
            "LICENSE",
            "docs/guide.md",
            "lib/main.js",
            "bin/tool.js",
            "esm/index.mjs",
            "cjs/index.cjs",
            "features/a/b.js",
            "data/table.json",
            "internal/x.js",
            "dist/index.js",
            "dist/sub/x.test.js",
            "src/index.ts",
            "test/a.js",
            ".npmrc",
            "tsconfig.json",
        ];
        assert_eq!(
            shipped(manifest, false, &paths),
            [
                "package.json",
                "README.md",
                "LICENSE",
                "docs/guide.md",
                "lib/main.js",
                "bin/tool.js",
                "esm/index.mjs",
                "cjs/index.cjs",
                "features/a/b.js",
                "data/table.json",
                "internal/x.js",
                "dist/index.js",
            ]
        );
    }

    #[test]
    fn without_files_everything_but_what_npm_never_publishes_ships() {
        let paths = ["index.js", "src/a.ts", "build/index.js", ".gitignore", "lib/.DS_Store", "package-lock.json"];
        assert_eq!(shipped(json!({}), false, &paths), ["index.js", "src/a.ts", "build/index.js"]);
    }

    #[test]
    fn an_addon_ships_its_binaries_and_not_what_built_them() {
        // better-sqlite3's shape: `files` names its sources; node-gyp's build is beside them.
        let manifest = json!({
            "main": "lib/index.js", "gypfile": true,
            "files": ["binding.gyp", "src/*.[ch]pp", "lib/**", "deps/**"]
        });
        let paths = [
            "binding.gyp",
            "build/Makefile",
            "build/Release/better_sqlite3.node",
            "build/Release/obj.target/x.o",
            "build/Release/.deps/x.o.d",
            "build/node_gyp_bins/python3",
            "build/config.gypi",
            "deps/sqlite3/sqlite3.c",
            "deps/sqlite3/sqlite3.h",
            "deps/download.sh",
            "deps/common.gypi",
            "lib/index.js",
            "lib/methods/x.js",
            "src/better_sqlite3.cpp",
            "prebuilds/linux-x64/node.napi.node",
            "package.json",
            "LICENSE",
        ];
        assert_eq!(
            shipped(manifest, true, &paths),
            [
                "build/Release/better_sqlite3.node",
                "deps/download.sh",
                "lib/index.js",
                "lib/methods/x.js",
                "prebuilds/linux-x64/node.napi.node",
                "package.json",
                "LICENSE",
            ]
        );
    }

    #[test]
    fn an_entry_point_ships_even_where_a_rule_would_leave_it_out() {
        let manifest = json!({ "main": "build/index.js", "gypfile": true, "files": ["lib"] });
        assert_eq!(shipped(manifest, true, &["build/index.js", "build/other.js"]), ["build/index.js"]);
        // An unreadable `files` ships everything.
        assert_eq!(shipped(json!({ "files": ["[" ] }), false, &["a.js"]), ["a.js"]);
    }
}
