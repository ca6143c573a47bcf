//! `build --check`, the gate for an artifact committed beside its sources (issue 26): it writes
//! nothing, passes right after a build, and fails with exit 3 naming each file that differs, for
//! every kind of difference a build would undo.

use crate::common;

use std::os::unix::fs::PermissionsExt;

use common::{cli, copy_tree, read_tree, utf8};

/// Runs `build` with `args` in `dir` (its own cache), returning exit code and stdout.
fn build(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let output = cli().current_dir(dir).arg("agent-bundle").arg("build").args(args).output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Right after a build, every testdata bundle's artifact matches its sources: the check and the
/// build agree, for every shape of bundle there is (routes, payloads, shipped packages, hosts).
#[test]
fn every_testdata_bundle_matches_its_sources_right_after_a_build() {
    common::npm_installed(camino::Utf8Path::new("testdata/npm"));
    for bundle in common::testdata_bundles() {
        let work = tempfile::tempdir().unwrap();
        let output = work.path().join("artifact");
        let output = output.to_str().unwrap();
        let root = bundle.to_str().unwrap();
        let (code, _, stderr) = build(std::path::Path::new("."), &["--root", root, "--output", output]);
        assert_eq!(code, Some(0), "{root}: {stderr}");
        let (code, stdout, stderr) = build(std::path::Path::new("."), &["--root", root, "--output", output, "--check"]);
        assert_eq!(code, Some(0), "{root}: {stdout}{stderr}");
        assert!(stdout.contains("matches its sources"), "{root}: {stdout}");
    }
}

#[test]
fn a_drifted_artifact_fails_the_check_naming_each_file_and_nothing_is_written() {
    let work = tempfile::tempdir().unwrap();
    copy_tree(std::path::Path::new("testdata/bundles/guards"), work.path());
    let dir = work.path();
    let (code, _, stderr) = build(dir, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let artifact = utf8(&dir.join("artifact"));

    // Every way a committed artifact drifts from its sources.
    std::fs::write(artifact.join("hooks/agent-bundle-runtime.mjs"), "// edited by hand\n").unwrap();
    std::fs::remove_file(artifact.join("hooks/hooks.json")).unwrap();
    let wrapper = std::fs::read_dir(artifact.join("hooks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".claude.mjs"))
        .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let wrapper = wrapper.strip_prefix(artifact.as_std_path()).unwrap().to_string_lossy().into_owned();
    // Not agent-bundle's: a build leaves it, and so does the check.
    std::fs::write(artifact.join("NOTES.txt"), "mine").unwrap();
    let before = read_tree(&artifact);

    let (code, stdout, stderr) = build(dir, &["--check"]);
    assert_eq!(code, Some(3), "a drifted artifact exits 3: {stdout}{stderr}");
    assert!(stdout.contains("changed  hooks/agent-bundle-runtime.mjs"), "{stdout}");
    assert!(stdout.contains("missing  hooks/hooks.json"), "{stdout}");
    assert!(stdout.contains(&format!("changed  {wrapper}")), "a mode change is a change: {stdout}");
    assert!(!stdout.contains("NOTES.txt"), "{stdout}");
    assert!(stderr.contains("run `cargo agent-bundle build` and commit the result"), "{stderr}");
    assert_eq!(read_tree(&artifact), before, "the check writes nothing into the artifact");

    // The same as data.
    let (code, stdout, _) = build(dir, &["--check", "--json"]);
    assert_eq!(code, Some(3));
    let document: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let drift = &document["bundles"][0]["drift"];
    assert!(
        drift.as_array().unwrap().iter().any(|d| d["path"] == "hooks/hooks.json" && d["drift"] == "missing"),
        "{drift}"
    );
    assert_eq!(document["bundles"][0]["matches"], false);

    // A hook the sources no longer declare: its files are stale.
    let (code, _, _) = build(dir, &[]);
    assert_eq!(code, Some(0));
    let audit: Vec<String> = read_tree(&artifact).into_keys().filter(|p| p.contains("after-tool-audit")).collect();
    assert!(!audit.is_empty());
    let config = std::fs::read_to_string(dir.join("agent-bundle.config.ts")).unwrap();
    let start = config.find("    afterTool: {").unwrap();
    let end = start + config[start..].find("    },\n").unwrap() + "    },\n".len();
    std::fs::write(dir.join("agent-bundle.config.ts"), format!("{}{}", &config[..start], &config[end..])).unwrap();
    let (code, stdout, stderr) = build(dir, &["--check"]);
    assert_eq!(code, Some(3), "{stdout}{stderr}");
    for path in &audit {
        assert!(stdout.contains(&format!("stale    {path} (a build removes it)")), "{path}: {stdout}");
    }

    // Sources that do not build are a failure of their own (exit 1), not drift.
    std::fs::write(dir.join("agent-bundle.config.ts"), "export default { hooks: { beforeTool: 7 } };\n").unwrap();
    let (code, _, stderr) = build(dir, &["--check"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("the sources do not build"), "{stderr}");
}
