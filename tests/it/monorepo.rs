//! One invocation for a whole monorepo: cargo workspace members through cargo metadata, or every
//! bundle under a folder; errors in one bundle do not stop the others unless --fail-fast.

use crate::common;

use std::path::Path;

use common::{cli, copy_tree};

fn monorepo() -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    copy_tree(Path::new("testdata/monorepo"), &temp.path().join("repo"));
    temp
}

#[test]
fn workspace_builds_every_member_that_holds_a_bundle_with_one_shared_cache() {
    let temp = monorepo();
    let repo = temp.path().join("repo");
    let output = cli()
        .args(["build", "--workspace", "--json", "--manifest-path"])
        .arg(repo.join("Cargo.toml"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let plugins: Vec<&str> =
        report["bundles"].as_array().unwrap().iter().map(|b| b["plugin"]["name"].as_str().unwrap()).collect();
    assert_eq!(
        plugins,
        ["alpha", "beta"],
        "members with a config or [package.metadata.agent-bundle]; tools/ are not members"
    );
    assert!(repo.join("crates/alpha/artifact/agent-bundle.manifest.json").is_file());
    assert!(repo.join("crates/beta/hooks/artifact/agent-bundle.manifest.json").is_file());
    assert!(
        repo.join("target/agent-bundle-cache/v1/bundles").is_dir(),
        "the cache lives in the workspace's target folder"
    );
}

#[test]
fn package_selects_members() {
    let temp = monorepo();
    let repo = temp.path().join("repo");
    let output =
        cli().args(["build", "-p", "beta", "--json", "--manifest-path"]).arg(repo.join("Cargo.toml")).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["bundles"].as_array().unwrap().len(), 1);
    assert!(!repo.join("crates/alpha/artifact").exists());

    let unknown =
        cli().args(["build", "-p", "gamma", "--manifest-path"]).arg(repo.join("Cargo.toml")).output().unwrap();
    assert_eq!(unknown.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("package `gamma` is not a member"));
}

#[test]
fn recursive_finds_bundles_skips_node_modules_and_keeps_going_past_errors() {
    let temp = monorepo();
    let repo = temp.path().join("repo");
    let output = cli().args(["build", "--recursive", "--root"]).arg(&repo).output().unwrap();
    assert_eq!(output.status.code(), Some(1), "one bundle is broken");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let headers: Vec<&str> = stdout.lines().filter_map(|l| l.strip_prefix("== ")).collect();
    let headers: Vec<String> = headers.iter().map(|h| h.replace(repo.to_str().unwrap(), "")).collect();
    assert_eq!(headers, ["/crates/alpha", "/crates/beta/hooks", "/tools/broken", "/tools/lint-hooks"]);
    assert!(stdout.contains("Built 3 of 4 bundles; 1 failed"), "{stdout}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("AB4220"));
    assert!(repo.join("tools/lint-hooks/artifact").is_dir(), "the bundle after the broken one was built");

    // A second walk skips the artifacts the first one wrote.
    let again = cli().args(["build", "--recursive", "--fail-fast", "--root"]).arg(&repo).output().unwrap();
    let stdout = String::from_utf8(again.stdout).unwrap();
    assert!(stdout.contains("Built 2 of 4 bundles; 1 failed, 1 not attempted (--fail-fast)"), "{stdout}");
}

/// `--recursive --json`: one document, each bundle's diagnostics in its own entry (a failed bundle's
/// included) and nowhere else, so nothing is lost and nothing printed twice.
#[test]
fn recursive_json_carries_every_bundles_diagnostics_once() {
    let temp = monorepo();
    let repo = temp.path().join("repo");
    let output = cli().args(["build", "--recursive", "--json", "--root"]).arg(&repo).output().unwrap();
    assert_eq!(output.status.code(), Some(1), "one bundle is broken");
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let bundles = document["bundles"].as_array().unwrap();
    assert_eq!(bundles.len(), 4);
    let broken = bundles.iter().find(|b| b["output"].as_str().unwrap().contains("tools/broken")).unwrap();
    assert_eq!(broken["built"], false);
    let codes: Vec<&str> =
        broken["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert!(codes.contains(&"AB4220"), "{codes:?}");
    assert_eq!(bundles.iter().filter(|b| b["built"] == true).count(), 3);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!stderr.contains("AB4220") && !stderr.contains("warning["), "diagnostics were printed twice: {stderr}");
}
