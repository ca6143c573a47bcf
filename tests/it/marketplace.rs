//! Marketplace catalogs (issue 26, item 4): a repository that publishes its built plugins declares
//! its marketplace once (`agent-bundle.marketplace.json`) and `build` writes each host's catalog
//! beside it. `claude plugin validate --strict` on the Claude catalog runs in the real-host suite
//! (tests/host_e2e), where the pinned Claude Code is installed.

use crate::common;

use std::path::Path;

use common::{cli, copy_tree};
use serde_json::Value;

const DECLARATION: &str = r#"{
  "name": "example-hooks",
  "owner": { "name": "agent-bundle examples" },
  "description": "Guards and canonical-tool hooks, built by agent-bundle"
}
"#;

/// A repository with two plugins under `plugins/`, both built for every host: guards and
/// canonical-tools.
fn repository(dir: &Path) {
    for bundle in ["guards", "canonical-tools"] {
        copy_tree(&Path::new("testdata/bundles").join(bundle), &dir.join("plugins").join(bundle));
        let _ = std::fs::remove_dir_all(dir.join("plugins").join(bundle).join("artifact"));
    }
    std::fs::write(dir.join("agent-bundle.marketplace.json"), DECLARATION).unwrap();
}

fn build(dir: &Path, extra: &[&str]) -> std::process::Output {
    cli().args(["agent-bundle", "build", "--recursive", "--root"]).arg(dir).args(extra).output().unwrap()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

fn names(catalog: &Value) -> Vec<&str> {
    catalog["plugins"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect()
}

#[test]
fn each_host_gets_a_catalog_listing_the_plugins_built_for_it() {
    let work = tempfile::tempdir().unwrap();
    repository(work.path());
    let built = build(work.path(), &[]);
    let stdout = String::from_utf8_lossy(&built.stdout);
    assert!(built.status.success(), "{stdout}{}", String::from_utf8_lossy(&built.stderr));
    assert!(
        stdout.contains(
            "Catalog .claude-plugin/marketplace.json (claude, claude-mod, codex; marketplace `example-hooks`): 2 plugins, written"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "Catalog .github/plugin/marketplace.json (copilot; marketplace `example-hooks`): 2 plugins, written"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "Catalog .factory-plugin/marketplace.json (droid; marketplace `example-hooks`): 2 plugins, written"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("No catalog for gemini: "), "{stdout}");

    let claude = read_json(&work.path().join(".claude-plugin/marketplace.json"));
    let copilot = read_json(&work.path().join(".github/plugin/marketplace.json"));
    assert_eq!(names(&claude), ["canonical-tools", "guards"]);
    assert_eq!(names(&copilot), ["canonical-tools", "guards"]);
    // Each entry points at the plugin folder its hosts read, and says what that folder's manifest says
    // (Claude's validator refuses an entry whose version differs from its plugin.json's).
    for (catalog, manifest) in [(&claude, ".claude-plugin/plugin.json"), (&copilot, ".plugin/plugin.json")] {
        for entry in catalog["plugins"].as_array().unwrap() {
            let source = entry["source"].as_str().unwrap();
            assert!(source.starts_with("./plugins/") && source.ends_with("/artifact"), "{entry}");
            let plugin = read_json(&work.path().join(source).join(manifest));
            for key in ["name", "version", "description", "author"] {
                assert_eq!(entry[key], plugin[key], "{key} of {entry}");
            }
        }
    }
    insta::assert_snapshot!(
        "claude_catalog",
        std::fs::read_to_string(work.path().join(".claude-plugin/marketplace.json")).unwrap()
    );
    // Droid's entries name each artifact's droid/ folder, the plugin Droid loads (its own manifest and
    // hooks/hooks.json), not the artifact's root, which is the Claude Code plugin.
    let droid = read_json(&work.path().join(".factory-plugin/marketplace.json"));
    assert_eq!(names(&droid), ["canonical-tools", "guards"]);
    for entry in droid["plugins"].as_array().unwrap() {
        let source = entry["source"].as_str().unwrap();
        assert!(source.starts_with("./plugins/") && source.ends_with("/artifact/droid"), "{entry}");
        let plugin = read_json(&work.path().join(source).join(".factory-plugin/plugin.json"));
        for key in ["name", "version", "description", "author"] {
            assert_eq!(entry[key], plugin[key], "{key} of {entry}");
        }
        assert!(work.path().join(source).join("hooks/hooks.json").is_file(), "{entry}");
    }
    insta::assert_snapshot!(
        "droid_catalog",
        std::fs::read_to_string(work.path().join(".factory-plugin/marketplace.json")).unwrap()
    );
    insta::assert_snapshot!(
        "copilot_catalog",
        std::fs::read_to_string(work.path().join(".github/plugin/marketplace.json")).unwrap()
    );

    // Built again: nothing to write. Built from another checkout path: the same bytes.
    let again = build(work.path(), &[]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("2 plugins, unchanged"));
    let elsewhere = tempfile::tempdir().unwrap();
    let other = elsewhere.path().join("some/deeper/checkout");
    repository(&other);
    assert!(build(&other, &[]).status.success());
    for catalog in
        [".claude-plugin/marketplace.json", ".factory-plugin/marketplace.json", ".github/plugin/marketplace.json"]
    {
        assert_eq!(
            std::fs::read(work.path().join(catalog)).unwrap(),
            std::fs::read(other.join(catalog)).unwrap(),
            "{catalog}"
        );
    }

    // The drift gate covers the catalogs: an edited one is named, exit 3.
    let catalog = work.path().join(".github/plugin/marketplace.json");
    std::fs::write(&catalog, std::fs::read_to_string(&catalog).unwrap().replace("every host", "some hosts")).unwrap();
    let checked = build(work.path(), &["--check"]);
    assert_eq!(checked.status.code(), Some(3), "{}", String::from_utf8_lossy(&checked.stdout));
    assert!(
        String::from_utf8_lossy(&checked.stdout)
            .contains("catalog .github/plugin/marketplace.json differs from what the sources build"),
        "{}",
        String::from_utf8_lossy(&checked.stdout)
    );
    std::fs::remove_file(&catalog).unwrap();
    let checked = build(work.path(), &["--check"]);
    assert_eq!(checked.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&checked.stdout).contains("catalog .github/plugin/marketplace.json is missing"));
}

#[test]
fn a_catalog_someone_else_wrote_is_never_replaced_and_then_no_catalog_is_written() {
    let work = tempfile::tempdir().unwrap();
    repository(work.path());
    let theirs = work.path().join(".github/plugin/marketplace.json");
    std::fs::create_dir_all(theirs.parent().unwrap()).unwrap();
    let foreign = r#"{ "name": "someone-elses", "owner": { "name": "them" }, "plugins": [] }"#;
    std::fs::write(&theirs, foreign).unwrap();
    let built = build(work.path(), &[]);
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert_eq!(built.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error[AB5103]") && stderr.contains("is not the catalog of marketplace `example-hooks`"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), foreign);
    assert!(!work.path().join(".claude-plugin/marketplace.json").exists(), "all catalogs or none");
}

#[test]
fn a_declaration_that_is_not_one_is_named_with_its_line_and_the_key() {
    let work = tempfile::tempdir().unwrap();
    repository(work.path());
    std::fs::write(
        work.path().join("agent-bundle.marketplace.json"),
        "{\n  \"name\": \"example-hooks\",\n  \"owners\": { \"name\": \"x\" },\n  \"description\": \"d\"\n}\n",
    )
    .unwrap();
    let built = build(work.path(), &[]);
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert_eq!(built.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error[AB5101]") && stderr.contains("agent-bundle.marketplace.json`:3:"), "{stderr}");
    assert!(stderr.contains("unknown field `owners`"), "{stderr}");

    std::fs::write(
        work.path().join("agent-bundle.marketplace.json"),
        DECLARATION.replace("\"example-hooks\"", "\"Example Hooks\""),
    )
    .unwrap();
    let stderr = String::from_utf8_lossy(&build(work.path(), &[]).stderr).to_string();
    assert!(stderr.contains("error[AB5101]") && stderr.contains("name it `example-hooks`"), "{stderr}");
}

#[test]
fn two_plugins_of_one_name_cannot_share_a_catalog() {
    let work = tempfile::tempdir().unwrap();
    repository(work.path());
    copy_tree(&work.path().join("plugins/guards"), &work.path().join("plugins/guards-copy"));
    let built = build(work.path(), &[]);
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert_eq!(built.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error[AB5102]") && stderr.contains("two plugins named `guards`"), "{stderr}");
    assert!(!work.path().join(".claude-plugin/marketplace.json").exists());
}

#[test]
fn a_catalog_that_cannot_be_written_is_an_error_naming_it() {
    let work = tempfile::tempdir().unwrap();
    repository(work.path());
    // `.github` is a link to nowhere: nothing is there to replace, and no folder can be made.
    std::os::unix::fs::symlink(work.path().join("nowhere"), work.path().join(".github")).unwrap();
    let built = build(work.path(), &[]);
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert_eq!(built.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error[AB5104]") && stderr.contains(".github/plugin/marketplace.json"), "{stderr}");
}
