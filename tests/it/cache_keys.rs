//! Every input that can change an output is part of its key (D14), each one a regression test of a
//! way incremental builds once shipped stale code: tsconfig `paths` and their `extends` chain, a
//! package's `exports`, a file saved while the build runs; and keys are portable: two checkouts of
//! one tree share the cache.

use crate::common;

use std::path::Path;

use agent_bundle::driver::{BuildOptions, BuildReport, build};
use agent_bundle::io::stamp::Recorded;
use agent_bundle::io::{Disk, RealDisk};
use camino::{Utf8Path, Utf8PathBuf};
use common::{utf8, write_file};

/// A bundle whose one handler imports `@lib/word` through tsconfig `paths` (set in a base config
/// the tsconfig extends) and the npm package `pkg`.
fn bundle(root: &Path) {
    write_file(
        root,
        "agent-bundle.config.ts",
        "import { defineConfig } from 'agent-bundle/config';\nexport default defineConfig({\n  hooks: { sessionStart: './src/start.ts' },\n  plugin: { name: 'keys', description: 'd', version: '1.0.0', author: 'a' },\n  targets: ['claude'],\n});\n",
    );
    write_file(
        root,
        "src/start.ts",
        "import { word } from '@lib/word';\nimport { fromPackage } from 'pkg';\nexport default async function () { return { additionalContext: `${word} ${fromPackage}` }; }\n",
    );
    write_file(root, "lib-a/word.ts", "export const word = 'from-lib-a';\n");
    write_file(root, "lib-b/word.ts", "export const word = 'from-lib-b';\n");
    write_file(
        root,
        "tsconfig.base.json",
        "{ \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@lib/*\": [\"lib-a/*\"] } } }\n",
    );
    write_file(
        root,
        "tsconfig.json",
        "{\n  // the base holds the paths\n  \"extends\": \"./tsconfig.base.json\",\n}\n",
    );
    write_file(
        root,
        "node_modules/pkg/package.json",
        "{ \"name\": \"pkg\", \"version\": \"1.0.0\", \"exports\": { \".\": \"./main.js\" } }\n",
    );
    write_file(root, "node_modules/pkg/main.js", "export const fromPackage = 'pkg-main';\n");
    write_file(root, "node_modules/pkg/alt.js", "export const fromPackage = 'pkg-alt';\n");
}

fn options(root: &Path, cache: &Path) -> BuildOptions {
    BuildOptions { root: utf8(root), cache_dir: Some(utf8(cache)), ..Default::default() }
}

fn built(options: &BuildOptions, disk: &dyn Disk) -> BuildReport {
    let report = build(options, disk).unwrap();
    assert!(!report.has_errors(), "{:?}", report.diagnostics().iter().map(|d| &d.message).collect::<Vec<_>>());
    report
}

fn bundle_text(root: &Path) -> String {
    std::fs::read_to_string(root.join("artifact/hooks/handlers/src/start.mjs")).unwrap()
}

#[test]
fn re_pointing_tsconfig_paths_in_an_extended_config_rebuilds_and_breaking_them_fails() {
    let temp = tempfile::tempdir().unwrap();
    let (root, cache) = (temp.path().join("bundle"), temp.path().join("cache"));
    bundle(&root);
    built(&options(&root, &cache), &RealDisk);
    assert!(bundle_text(&root).contains("from-lib-a"));
    write_file(
        &root,
        "tsconfig.base.json",
        "{ \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@lib/*\": [\"lib-b/*\"] } } }\n",
    );
    let report = built(&options(&root, &cache), &RealDisk);
    assert_eq!(report.bundle_stats().bundled, 1);
    assert!(bundle_text(&root).contains("from-lib-b"), "{}", bundle_text(&root));
    let reasons = &report.explanation().unwrap().hooks[0].reasons;
    assert!(reasons.iter().any(|r| r.contains("tsconfig.base.json")), "{reasons:?}");
    // Broken on purpose: the build fails instead of shipping the old module.
    write_file(
        &root,
        "tsconfig.base.json",
        "{ \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@lib/*\": [\"lib-x/*\"] } } }\n",
    );
    let report = build(&options(&root, &cache), &RealDisk).unwrap();
    assert!(report.has_errors(), "a broken `paths` still built");
    // The extends itself re-pointed (to a config that maps elsewhere).
    write_file(
        &root,
        "tsconfig.other.json",
        "{ \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@lib/*\": [\"lib-a/*\"] } } }\n",
    );
    write_file(&root, "tsconfig.json", "{ \"extends\": \"./tsconfig.other.json\" }\n");
    built(&options(&root, &cache), &RealDisk);
    assert!(bundle_text(&root).contains("from-lib-a"));
}

#[test]
fn a_packages_exports_field_is_part_of_the_key() {
    let temp = tempfile::tempdir().unwrap();
    let (root, cache) = (temp.path().join("bundle"), temp.path().join("cache"));
    bundle(&root);
    built(&options(&root, &cache), &RealDisk);
    assert!(bundle_text(&root).contains("pkg-main"));
    write_file(
        &root,
        "node_modules/pkg/package.json",
        "{ \"name\": \"pkg\", \"version\": \"1.0.0\", \"exports\": { \".\": \"./alt.js\" } }\n",
    );
    let report = built(&options(&root, &cache), &RealDisk);
    assert_eq!(report.bundle_stats().bundled, 1);
    assert!(bundle_text(&root).contains("pkg-alt"));
}

/// A disk that saves a new version of a file right after the build has read it: the Workbench's
/// normal use, an editor saving while a build runs.
struct SavesDuringTheBuild<'a> {
    path: Utf8PathBuf,
    new_text: &'a str,
    saved: std::sync::atomic::AtomicBool,
}

impl Disk for SavesDuringTheBuild<'_> {
    fn is_file(&self, path: &Utf8Path) -> bool {
        RealDisk.is_file(path)
    }
    fn is_dir(&self, path: &Utf8Path) -> bool {
        RealDisk.is_dir(path)
    }
    fn canonicalize(&self, path: &Utf8Path) -> Option<Utf8PathBuf> {
        RealDisk.canonicalize(path)
    }
    fn read_to_string(&self, path: &Utf8Path) -> std::io::Result<String> {
        let text = RealDisk.read_to_string(path);
        if path.ends_with(&self.path) && !self.saved.swap(true, std::sync::atomic::Ordering::SeqCst) {
            std::fs::write(path, self.new_text).unwrap();
        }
        text
    }
    fn list_dir(&self, path: &Utf8Path) -> std::io::Result<Vec<String>> {
        RealDisk.list_dir(path)
    }
    fn read(&self, path: &Utf8Path) -> std::io::Result<Vec<u8>> {
        RealDisk.read(path)
    }
    fn read_recorded(&self, path: &Utf8Path) -> (Recorded, Option<Vec<u8>>) {
        RealDisk.read_recorded(path)
    }
    fn read_recorded_with_mode(&self, path: &Utf8Path) -> (Recorded, Option<(Vec<u8>, u32)>) {
        RealDisk.read_recorded_with_mode(path)
    }
    fn record_link(&self, path: &Utf8Path) -> Recorded {
        RealDisk.record_link(path)
    }
    fn record_dir(&self, path: &Utf8Path) -> Recorded {
        RealDisk.record_dir(path)
    }
    fn walk_tree(
        &self,
        dir: &Utf8Path,
        within: &[Utf8PathBuf],
        decide: &dyn Fn(&str, bool) -> agent_bundle::io::tree::Decision,
    ) -> std::io::Result<agent_bundle::io::tree::Walked> {
        RealDisk.walk_tree(dir, within, decide)
    }
    fn read_link(&self, path: &Utf8Path) -> Option<String> {
        RealDisk.read_link(path)
    }
    fn walk_files(&self, dir: &Utf8Path) -> std::io::Result<Vec<String>> {
        RealDisk.walk_files(dir)
    }
    fn walk_dirs(
        &self,
        dir: &Utf8Path,
        rules: &agent_bundle::io::WalkRules<'_>,
    ) -> std::io::Result<Vec<agent_bundle::io::WalkedDir>> {
        RealDisk.walk_dirs(dir, rules)
    }
}

#[test]
fn a_config_saved_while_the_build_runs_is_never_taken_as_built() {
    let temp = tempfile::tempdir().unwrap();
    let (root, cache) = (temp.path().join("bundle"), temp.path().join("cache"));
    bundle(&root);
    // Old enough that its stamp is trusted, so only the save can tell.
    std::thread::sleep(std::time::Duration::from_millis(50));
    let timeout_added = std::fs::read_to_string(root.join("agent-bundle.config.ts"))
        .unwrap()
        .replace("'./src/start.ts'", "{ handler: './src/start.ts', timeout: 7 }");
    let disk = SavesDuringTheBuild {
        path: "agent-bundle.config.ts".into(),
        new_text: &timeout_added,
        saved: Default::default(),
    };
    built(&options(&root, &cache), &disk);
    let hooks = std::fs::read_to_string(root.join("artifact/hooks/hooks.json")).unwrap();
    assert!(!hooks.contains("\"timeout\": 7"), "the build read the config before the save: {hooks}");
    // The next build sees the saved config: it is not a no-op on the stale artifact.
    let report = built(&options(&root, &cache), &RealDisk);
    assert!(matches!(report.outcome, agent_bundle::driver::BuildOutcome::Built { .. }), "taken as fresh");
    let hooks = std::fs::read_to_string(root.join("artifact/hooks/hooks.json")).unwrap();
    assert!(hooks.contains("\"timeout\": 7"), "{hooks}");
}

#[test]
fn two_checkouts_of_one_tree_share_the_cache_each_checking_its_own_files() {
    let temp = tempfile::tempdir().unwrap();
    let cache = temp.path().join("cache");
    let (first, second) = (temp.path().join("one/bundle"), temp.path().join("two/deeper/bundle"));
    bundle(&first);
    bundle(&second);
    // A file the resolver read that changed within the file clock's granularity of the build's start
    // is recorded as unknown (and rebuilt next time); these are older.
    std::thread::sleep(std::time::Duration::from_millis(50));
    built(&options(&first, &cache), &RealDisk);
    let report = built(&options(&second, &cache), &RealDisk);
    assert_eq!((report.bundle_stats().bundled, report.bundle_stats().cached), (0, 1), "keys name the checkout");
    assert_eq!(bundle_text(&first), bundle_text(&second));
    // The second checkout's own files decide: an edit there is not hidden by the first's entry.
    write_file(&second, "lib-a/word.ts", "export const word = 'edited-in-two';\n");
    let report = built(&options(&second, &cache), &RealDisk);
    assert_eq!(report.bundle_stats().bundled, 1);
    assert!(bundle_text(&second).contains("edited-in-two"));
    assert!(bundle_text(&first).contains("from-lib-a"));
}

/// Issue 28: two clones of one commit at different absolute paths, each with its own empty cache,
/// compute the same cache keys (no absolute path, user name or stamp in a key) and write the same
/// artifact bytes, so an engine that restores one clone's outputs in the other restores exactly what
/// that clone would have built. The per-folder entries (build state, the no-op fingerprint), which
/// describe one output folder on one machine with its file stamps, are keyed by that folder and
/// never decide an output's bytes.
#[test]
fn two_clones_at_different_paths_compute_the_same_keys_and_bytes() {
    let temp = tempfile::tempdir().unwrap();
    let clones = [temp.path().join("a/repo/bundle"), temp.path().join("b/some/much/deeper/repo/bundle")];
    let caches = [temp.path().join("cache-a"), temp.path().join("cache-b")];
    let mut keys = Vec::new();
    let mut trees = Vec::new();
    for (clone, cache) in clones.iter().zip(&caches) {
        bundle(clone);
        std::thread::sleep(std::time::Duration::from_millis(50));
        let report = built(&options(clone, cache), &RealDisk);
        assert_eq!(report.bundle_stats().bundled, 1, "each clone builds from its own empty cache");
        let store = agent_bundle::io::CacheStore::new(utf8(cache));
        let mut bundle_keys = store.keys("bundles");
        bundle_keys.sort();
        assert_eq!(bundle_keys.len(), 1);
        keys.push(bundle_keys);
        trees.push(common::read_tree(&utf8(&clone.join("artifact"))));
    }
    assert_eq!(keys[0], keys[1], "a cache key depends on where the clone is");
    assert_eq!(trees[0], trees[1], "the artifact's bytes depend on where the clone is");
    // And a key names neither clone's path nor this user.
    let user = std::env::var("USER").unwrap_or_default();
    for key in &keys[0] {
        assert!(key.len() == 64 && key.bytes().all(|b| b.is_ascii_hexdigit()), "{key}");
        assert!(user.is_empty() || !key.contains(&user));
    }
}

#[test]
fn resolution_does_not_depend_on_the_environment() {
    // NODE_PATH would let a bare import resolve at build time that Node could not resolve from the
    // artifact; the bundler's resolver ignores it, so the environment is not an input.
    let temp = tempfile::tempdir().unwrap();
    let (root, cache) = (temp.path().join("bundle"), temp.path().join("cache"));
    bundle(&root);
    write_file(
        &root,
        "src/start.ts",
        "import { only } from 'elsewhere';\nexport default async function () { return { additionalContext: only }; }\n",
    );
    write_file(
        temp.path(),
        "global/elsewhere/package.json",
        "{ \"name\": \"elsewhere\", \"version\": \"1.0.0\", \"main\": \"index.js\" }\n",
    );
    write_file(temp.path(), "global/elsewhere/index.js", "export const only = 'global';\n");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-agent-bundle"))
        .args(["agent-bundle", "build", "--root"])
        .arg(&root)
        .arg("--cache-dir")
        .arg(&cache)
        .env("NODE_PATH", temp.path().join("global"))
        .output()
        .unwrap();
    assert!(!status.status.success(), "NODE_PATH resolved a bare import");
    assert!(String::from_utf8_lossy(&status.stderr).contains("elsewhere"));
}
