//! What an artifact copies from the machine that builds it (D14 in docs/decisions.md): packages shipped
//! whole and payloads come only from inside the bundle root and its node_modules, a symlink leading
//! outside is an error (or, opted in, a link in the artifact, never the files it names), modes are
//! kept exactly, through incremental rebuilds and whatever the umask, and of a package only what it
//! needs at run time ships, the manifest recording what was left out.
//!
//! The packages are written into temporary folders here: symlinks and modes do not survive npm.

use crate::common;

use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::Command;

use agent_bundle::artifact::{ArtifactManifest, read_verified};
use agent_bundle::driver::{BuildOptions, build};
use agent_bundle::io::RealDisk;
use camino::{Utf8Path, Utf8PathBuf};
use common::{cli, require_node};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn write_mode(path: &Path, text: &str, mode: u32) {
    write(path, text);
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn mode_of(path: &Path) -> u32 {
    std::fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
}

/// A bundle whose one hook imports `package`, shipped whole, with a payload `tools` and a config
/// ending in `extra` (more top-level keys).
fn bundle(root: &Path, package: &str, bundle_keys: &str, payload: &str) {
    write(
        &root.join("agent-bundle.config.ts"),
        &format!(
            "export default {{\n  hooks: {{ stop: './src/stop.ts' }},\n  bundle: {{ external: ['{package}']{bundle_keys} }},\n  payload: {{ tools: {payload} }},\n  plugin: {{ name: 'shipping', description: 'd', version: '1.0.0', author: 'a' }},\n  targets: ['claude'],\n}};\n"
        ),
    );
    write(
        &root.join("src/stop.ts"),
        &format!("import {{ check }} from '{package}';\n\nexport default () => {{ check(); }};\n"),
    );
}

/// Builds with the library into `output`; returns the report's diagnostics as `CODE: message`.
fn build_lib(root: &Path, output: &Path) -> (Vec<String>, bool) {
    let options = BuildOptions {
        root: Utf8PathBuf::from_path_buf(root.to_path_buf()).unwrap(),
        output: Some(Utf8PathBuf::from_path_buf(output.to_path_buf()).unwrap()),
        no_cache: true,
        ..Default::default()
    };
    let report = build(&options, &RealDisk).unwrap();
    let diagnostics = report.diagnostics().iter().map(|d| format!("{}: {}", d.code, d.message)).collect();
    (diagnostics, report.has_errors())
}

/// Builds through the real binary with a cache (so the second build is incremental), under `umask`;
/// returns the JSON summary.
fn build_cli(root: &Path, output: &Path, cache: &Path, umask: &str) -> serde_json::Value {
    let base = cli();
    let mut command = Command::new("sh");
    command.env_clear();
    for (key, value) in base.get_envs() {
        if let Some(value) = value {
            command.env(key, value);
        }
    }
    command.arg("-c").arg(format!("umask {umask} && exec \"$0\" \"$@\"")).arg(base.get_program());
    command.arg("build").arg("--root").arg(root).arg("--output").arg(output).arg("--cache-dir").arg(cache);
    let ran = command.arg("--json").output().unwrap();
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    serde_json::from_slice(&ran.stdout).unwrap()
}

fn manifest(output: &Path) -> ArtifactManifest {
    read_verified(Utf8Path::from_path(output).unwrap(), &RealDisk).unwrap()
}

/// Every entry of a folder, links not followed: (relative path, is a link).
fn entries(dir: &Path) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                stack.push(entry.path());
            } else {
                let relative = entry.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                found.push((relative, kind.is_symlink()));
            }
        }
    }
    found.sort();
    found
}

const SECRET: &str = "a secret of the machine that builds the plugin\n";

/// A bundle with a package and a payload that each hold links leading outside (to `/etc` and to a
/// file beside the bundle root) and links inside, which keep working.
fn escaping_bundle(temp: &Path, opt_in: bool) -> PathBuf {
    let root = temp.join("bundle");
    write(&temp.join("outside/secret.txt"), SECRET);
    let package = root.join("node_modules/escaping");
    write(
        &package.join("package.json"),
        r#"{ "name": "escaping", "version": "1.0.0", "main": "index.js", "files": ["index.js", "lib"] }"#,
    );
    write(&package.join("index.js"), "exports.check = () => require('./lib/inside.js');\n");
    write(&package.join("lib/real.js"), "module.exports = 'inside';\n");
    symlink("real.js", package.join("lib/inside.js")).unwrap();
    symlink("/etc", package.join("lib/etc-link")).unwrap();
    symlink("../../../../outside/secret.txt", package.join("lib/secret.txt")).unwrap();
    write_mode(&root.join("tools/run.sh"), "#!/bin/sh\necho run\n", 0o755);
    symlink("run.sh", root.join("tools/alias.sh")).unwrap();
    symlink("/etc", root.join("tools/etc-link")).unwrap();
    let (keys, payload) = if opt_in {
        (", keepOutsideLinks: true", "{ source: './tools', keepOutsideLinks: true }")
    } else {
        ("", "'./tools'")
    };
    bundle(&root, "escaping", keys, payload);
    root
}

#[test]
fn a_symlink_leaving_the_bundle_is_an_error_naming_it_and_nothing_is_written() {
    let temp = tempfile::tempdir().unwrap();
    let root = escaping_bundle(temp.path(), false);
    let output = temp.path().join("artifact");
    let (diagnostics, failed) = build_lib(&root, &output);
    assert!(failed, "{diagnostics:#?}");
    let mut errors: Vec<&String> =
        diagnostics.iter().filter(|d| d.starts_with("AB4851") || d.starts_with("AB4752")).collect();
    errors.sort();
    assert_eq!(
        errors,
        [
            "AB4752: payload `tools`: `tools/etc-link` is a symlink to `/etc`, outside the bundle root and its node_modules",
            "AB4851: package `escaping` holds `node_modules/escaping/lib/etc-link`, a symlink to `/etc`, outside the bundle root, its node_modules and the package's folder",
            "AB4851: package `escaping` holds `node_modules/escaping/lib/secret.txt`, a symlink to `../../../../outside/secret.txt`, outside the bundle root, its node_modules and the package's folder",
        ],
        "{diagnostics:#?}"
    );
    assert!(!output.exists(), "a failed build writes nothing");
}

#[test]
fn opted_in_a_symlink_leaving_the_bundle_ships_as_that_link_and_never_as_its_files() {
    require_node();
    let temp = tempfile::tempdir().unwrap();
    let root = escaping_bundle(temp.path(), true);
    let output = temp.path().join("artifact");
    let cache = temp.path().join("cache");
    build_cli(&root, &output, &cache, "022");

    let links = [
        ("hooks/node_modules/escaping/lib/etc-link", "/etc"),
        ("hooks/node_modules/escaping/lib/secret.txt", "../../../../outside/secret.txt"),
        ("tools/etc-link", "/etc"),
    ];
    for (path, target) in links {
        assert_eq!(std::fs::read_link(output.join(path)).unwrap(), Path::new(target), "{path}");
    }
    // Links inside are followed: their target's bytes and mode, as files.
    let shipped = entries(&output);
    assert!(shipped.contains(&("hooks/node_modules/escaping/lib/inside.js".to_string(), false)));
    assert!(shipped.contains(&("tools/alias.sh".to_string(), false)));
    assert_eq!(mode_of(&output.join("tools/alias.sh")), 0o755);
    // Nothing of /etc or beside the root was read into the artifact.
    let linked: Vec<&str> = shipped.iter().filter(|(_, link)| *link).map(|(p, _)| p.as_str()).collect();
    assert_eq!(linked, links.map(|(path, _)| path));
    for (path, link) in &shipped {
        assert!(!path.contains("etc-link/"), "{path} came from /etc");
        if !link {
            let bytes = std::fs::read(output.join(path)).unwrap();
            assert!(!String::from_utf8_lossy(&bytes).contains(SECRET.trim()), "{path} holds the secret");
        }
    }
    assert!(shipped.len() < 40, "{} entries: /etc was copied", shipped.len());
    let record = manifest(&output).files.into_iter().find(|f| f.path == "tools/etc-link").unwrap();
    assert_eq!((record.symlink.as_deref(), record.mode), (Some("/etc"), None));

    // A link that changes (to a target of the same length) is an input: the next build rewrites it.
    std::fs::remove_file(root.join("tools/etc-link")).unwrap();
    symlink("/tmp", root.join("tools/etc-link")).unwrap();
    let summary = build_cli(&root, &output, &cache, "022");
    assert_eq!(summary["written"], serde_json::json!(["agent-bundle.manifest.json", "tools/etc-link"]));
    assert_eq!(std::fs::read_link(output.join("tools/etc-link")).unwrap(), Path::new("/tmp"));

    // The manifest records the links as links, and reading it checks them.
    std::fs::remove_file(output.join("tools/etc-link")).unwrap();
    symlink("/var", output.join("tools/etc-link")).unwrap();
    let error = read_verified(Utf8Path::from_path(&output).unwrap(), &RealDisk).unwrap_err().to_string();
    assert!(error.contains("`tools/etc-link` is not the recorded link to `/tmp`"), "{error}");

    // The package still runs from the artifact through its link inside.
    let package = output.join("hooks/node_modules/escaping");
    let ran = Command::new("node")
        .arg("-e")
        .arg(format!("process.stdout.write(require({:?}).check())", package.to_str().unwrap()))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "inside", "{}", String::from_utf8_lossy(&ran.stderr));
}

#[test]
fn packages_linked_from_a_workspace_or_a_pnpm_store_ship_from_their_real_folders() {
    require_node();
    let temp = tempfile::tempdir().unwrap();
    let monorepo = temp.path().join("monorepo");
    // npm workspaces: the monorepo root's node_modules links to a workspace package, which lies
    // outside the bundle and outside every node_modules: its own folder counts as inside.
    let shared = monorepo.join("packages/shared");
    write(&shared.join("package.json"), r#"{ "name": "shared", "version": "1.0.0" }"#);
    write(&shared.join("index.js"), "exports.check = () => require('./lib/alias.js');\n");
    write(&shared.join("lib/real.js"), "module.exports = 'shared';\n");
    symlink("real.js", shared.join("lib/alias.js")).unwrap();
    std::fs::create_dir_all(monorepo.join("node_modules")).unwrap();
    symlink("../packages/shared", monorepo.join("node_modules/shared")).unwrap();
    // pnpm: a package in the root's store, with its dependency linked beside it.
    let store = monorepo.join("node_modules/.pnpm");
    let stored = store.join("stored@1.0.0/node_modules/stored");
    write(
        &stored.join("package.json"),
        r#"{ "name": "stored", "version": "1.0.0", "dependencies": { "dep": "1.0.0" } }"#,
    );
    write(&stored.join("index.js"), "exports.check = () => require('dep');\n");
    let dep = store.join("dep@1.0.0/node_modules/dep");
    write(&dep.join("package.json"), r#"{ "name": "dep", "version": "1.0.0" }"#);
    write(&dep.join("index.js"), "module.exports = 'stored';\n");
    symlink("../../dep@1.0.0/node_modules/dep", store.join("stored@1.0.0/node_modules/dep")).unwrap();
    symlink(".pnpm/stored@1.0.0/node_modules/stored", monorepo.join("node_modules/stored")).unwrap();

    let root = monorepo.join("apps/plugin");
    bundle(&root, "shared", "", "'./tools'");
    write(&root.join("tools/run.sh"), "#!/bin/sh\n");
    write(
        &root.join("agent-bundle.config.ts"),
        &std::fs::read_to_string(root.join("agent-bundle.config.ts"))
            .unwrap()
            .replace("['shared']", "['shared', 'stored']"),
    );
    write(
        &root.join("src/stop.ts"),
        "import { check } from 'shared';\nimport { check as stored } from 'stored';\n\nexport default () => { check(); stored(); };\n",
    );
    let output = temp.path().join("artifact");
    let (diagnostics, failed) = build_lib(&root, &output);
    assert!(!failed, "{diagnostics:#?}");
    let modules = output.join("hooks/node_modules");
    let script = format!(
        "const m = {:?}; process.stdout.write(require(m + '/shared').check() + ' ' + require(m + '/stored').check())",
        modules.to_str().unwrap()
    );
    let ran = Command::new("node").arg("-e").arg(script).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "shared stored", "{}", String::from_utf8_lossy(&ran.stderr));

    // A workspace package's link that leaves its own folder, even into the monorepo, is refused.
    write(&monorepo.join("README.md"), "the monorepo\n");
    symlink("../../../README.md", shared.join("lib/README.md")).unwrap();
    let (diagnostics, failed) = build_lib(&root, &temp.path().join("second"));
    assert!(failed);
    assert!(
        diagnostics.contains(&"AB4851: package `shared` holds `../../packages/shared/lib/README.md`, a symlink to `../../../README.md`, outside the bundle root, its node_modules and the package's folder".to_string()),
        "{diagnostics:#?}"
    );
}

/// A package and a payload with 0640, 0755 and 0600 files.
fn moded_bundle(temp: &Path) -> PathBuf {
    let root = temp.join("bundle");
    let package = root.join("node_modules/moded");
    write_mode(&package.join("package.json"), r#"{ "name": "moded", "version": "1.0.0", "bin": "bin/cli.js" }"#, 0o640);
    write_mode(&package.join("index.js"), "exports.check = () => undefined;\n", 0o640);
    write_mode(&package.join("bin/cli.js"), "#!/usr/bin/env node\n", 0o755);
    write_mode(&package.join("data/private.json"), "{}\n", 0o600);
    write_mode(&root.join("tools/run.sh"), "#!/bin/sh\n", 0o755);
    write_mode(&root.join("tools/config.ini"), "a=1\n", 0o640);
    write_mode(&root.join("tools/key.pem"), "key\n", 0o600);
    bundle(&root, "moded", "", "'./tools'");
    root
}

const MODED: &[(&str, u32)] = &[
    ("hooks/node_modules/moded/bin/cli.js", 0o755),
    ("hooks/node_modules/moded/data/private.json", 0o600),
    ("hooks/node_modules/moded/index.js", 0o640),
    ("hooks/node_modules/moded/package.json", 0o640),
    ("tools/config.ini", 0o640),
    ("tools/key.pem", 0o600),
    ("tools/run.sh", 0o755),
];

fn assert_modes(output: &Path, expected: &[(&str, u32)]) {
    let manifest = manifest(output);
    for (path, mode) in expected {
        assert_eq!(mode_of(&output.join(path)), *mode, "{path} on disk");
        let record = manifest.files.iter().find(|f| f.path == *path).unwrap();
        assert_eq!(record.mode, Some(*mode), "{path} in the manifest");
    }
    // What agent-bundle generates is 0644 whatever the umask.
    for generated in ["agent-bundle.manifest.json", "hooks/agent-bundle-runtime.mjs", ".claude-plugin/plugin.json"] {
        assert_eq!(mode_of(&output.join(generated)), 0o644, "{generated}");
    }
}

#[test]
fn modes_are_kept_exactly_whatever_the_umask_and_through_incremental_rebuilds() {
    let temp = tempfile::tempdir().unwrap();
    let root = moded_bundle(temp.path());
    let output = temp.path().join("artifact");
    let cache = temp.path().join("cache");
    // A umask that would narrow 0755 and 0640 if modes were left to it, and one that would widen.
    build_cli(&root, &output, &cache, "077");
    assert_modes(&output, MODED);
    let text = std::fs::read_to_string(output.join("agent-bundle.manifest.json")).unwrap();
    assert!(text.contains("\"mode\": \"0640\""), "modes are written in octal");

    // An edit elsewhere rebuilds incrementally: unchanged files are kept (same inode), modes intact.
    let inode = |path: &str| std::fs::metadata(output.join(path)).unwrap().ino();
    let before = inode("tools/key.pem");
    write(
        &root.join("src/stop.ts"),
        "import { check } from 'moded';\n\nexport default () => { check(); return undefined; };\n",
    );
    let summary = build_cli(&root, &output, &cache, "000");
    assert!(summary["kept"].as_u64().unwrap() > 0, "{summary}");
    assert_eq!(inode("tools/key.pem"), before, "an unchanged file is kept, not rewritten");
    assert_modes(&output, MODED);

    // A mode change alone rewrites that file, with its new mode, and the manifest.
    std::fs::set_permissions(root.join("tools/config.ini"), std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::set_permissions(root.join("node_modules/moded/index.js"), std::fs::Permissions::from_mode(0o644)).unwrap();
    let summary = build_cli(&root, &output, &cache, "022");
    assert_eq!(
        summary["written"],
        serde_json::json!(["agent-bundle.manifest.json", "hooks/node_modules/moded/index.js", "tools/config.ini"])
    );
    let mut changed = MODED.to_vec();
    changed[2].1 = 0o644;
    changed[4].1 = 0o600;
    assert_modes(&output, &changed);

    // A no-op build leaves everything as it is.
    let summary = build_cli(&root, &output, &cache, "022");
    assert_eq!(summary["written"], serde_json::json!([]));
    assert_modes(&output, &changed);
}

/// A native addon package with `files`, `main`, `bin`, `exports` and node-gyp's build beside it.
fn addon_bundle(temp: &Path) -> PathBuf {
    let root = temp.join("bundle");
    let package = root.join("node_modules/addon");
    write(
        &package.join("package.json"),
        r#"{
  "name": "addon", "version": "2.0.0", "main": "lib/index.js", "gypfile": true,
  "bin": { "addon-tool": "./bin/tool.js" },
  "files": ["lib/", "binding.gyp", "src/*.cc", "deps/**", "!lib/**/*.test.js"],
  "exports": {
    ".": { "import": "./esm/index.mjs", "require": "./lib/index.js" },
    "./extra": { "node": "./extra/node.js", "default": "./extra/default.js" },
    "./package.json": "./package.json"
  }
}"#,
    );
    let files: &[(&str, &str)] = &[
        ("lib/index.js", "exports.check = () => require('./util/join.js')('lib', 'runs');\n"),
        ("lib/util/join.js", "module.exports = (a, b) => a + ' ' + b;\n"),
        ("lib/util/join.test.js", "test();\n"),
        ("esm/index.mjs", "export const check = () => 'esm';\n"),
        ("extra/node.js", "module.exports = 'node';\n"),
        ("extra/default.js", "module.exports = 'default';\n"),
        ("bin/tool.js", "#!/usr/bin/env node\n"),
        ("README.md", "# addon\n"),
        ("LICENSE", "MIT\n"),
        ("binding.gyp", "{ 'targets': [] }\n"),
        ("src/addon.cc", "int main() {}\n"),
        ("deps/sqlite/sqlite3.c", "/* a big amalgamation */\n"),
        ("deps/sqlite/sqlite3.h", "/* its header */\n"),
        ("deps/download.sh", "#!/bin/sh\n"),
        ("build/Makefile", "all:\n"),
        ("build/config.gypi", "{}\n"),
        ("build/Release/addon.node", "\x7fELF pretend\n"),
        ("build/Release/obj.target/addon/src/addon.o", "object\n"),
        ("build/Release/.deps/Release/addon.node.d", "deps\n"),
        ("prebuilds/linux-x64/addon.node", "\x7fELF prebuilt\n"),
        ("test/addon.test.js", "test();\n"),
        (".npmrc", "always-auth=true\n"),
        ("tsconfig.json", "{}\n"),
    ];
    for (path, text) in files {
        write(&package.join(path), text);
    }
    // node-gyp links the machine's python into its build folder: left out, never followed.
    std::fs::create_dir_all(package.join("build/node_gyp_bins")).unwrap();
    symlink("/usr/bin/python3", package.join("build/node_gyp_bins/python3")).unwrap();
    bundle(&root, "addon", "", "'./tools'");
    write(&root.join("tools/run.sh"), "#!/bin/sh\n");
    root
}

#[test]
fn of_a_package_only_what_runs_ships_and_the_manifest_says_what_was_left_out() {
    require_node();
    let temp = tempfile::tempdir().unwrap();
    let root = addon_bundle(temp.path());
    let output = temp.path().join("artifact");
    let cache = temp.path().join("cache");
    build_cli(&root, &output, &cache, "022");

    let shipped: Vec<String> = entries(&output.join("hooks/node_modules/addon")).into_iter().map(|(p, _)| p).collect();
    assert_eq!(
        shipped,
        [
            "LICENSE",
            "README.md",
            "bin/tool.js",
            "build/Release/addon.node",
            "deps/download.sh",
            "esm/index.mjs",
            "extra/default.js",
            "extra/node.js",
            "lib/index.js",
            "lib/util/join.js",
            "package.json",
            "prebuilds/linux-x64/addon.node",
        ]
    );
    let manifest = manifest(&output);
    let package = manifest.shipped.iter().find(|p| p.name == "addon").unwrap();
    let left_out: Vec<(&str, u64)> = package.left_out.iter().map(|l| (l.path.as_str(), l.files)).collect();
    assert_eq!(
        left_out,
        [
            (".npmrc", 1),
            ("binding.gyp", 1),
            ("build/", 5),
            ("deps/", 2),
            ("lib/", 1),
            ("src/", 1),
            ("test/", 1),
            ("tsconfig.json", 1)
        ]
    );
    let build_bytes = package.left_out.iter().find(|l| l.path == "build/").unwrap().bytes;
    let expected =
        ["all:\n", "{}\n", "object\n", "deps\n", "/usr/bin/python3"].iter().map(|t| t.len() as u64).sum::<u64>();
    assert_eq!(build_bytes, expected);

    // What ships runs: the CommonJS entry with what it requires, and the ESM one.
    let dir = output.join("hooks/node_modules/addon");
    let script = format!(
        "const p = {:?}; import(p + '/esm/index.mjs').then(m => process.stdout.write(require(p).check() + ' ' + m.check()))",
        dir.to_str().unwrap()
    );
    let ran = Command::new("node").arg("-e").arg(script).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "lib runs esm", "{}", String::from_utf8_lossy(&ran.stderr));

    // What was left out is an input too: a changed size shows in the next build's manifest.
    write(&root.join("node_modules/addon/build/Makefile"), "all: addon.node\n");
    let summary = build_cli(&root, &output, &cache, "022");
    assert_eq!(summary["written"], serde_json::json!(["agent-bundle.manifest.json"]));
    let manifest = self::manifest(&output);
    let package = manifest.shipped.iter().find(|p| p.name == "addon").unwrap();
    let rebuilt = package.left_out.iter().find(|l| l.path == "build/").unwrap().bytes;
    assert_eq!(rebuilt, expected + "all: addon.node\n".len() as u64 - "all:\n".len() as u64);
}
