//! The crate as `cargo package` makes it holds every file its sources embed (`include_str!`,
//! `include_bytes!`, the pieces `runtime_core!` joins, the recorded envelopes build.rs embeds), so
//! the published crate compiles (issue 26: the Workbench's samples embed the recorded envelopes
//! under `testdata/`, which the package once left out).

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// `a/b/../c` → `a/c`, without touching the disk.
fn normalised(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn the_package_holds_every_file_the_sources_embed() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["package", "--list", "--allow-dirty", "--quiet"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(output.status.success(), "cargo package --list: {}", String::from_utf8_lossy(&output.stderr));
    let packaged: BTreeSet<String> = String::from_utf8_lossy(&output.stdout).lines().map(str::to_string).collect();
    let mut embedded = BTreeSet::new();
    // The pieces `runtime_core!` joins: `include_str!(concat!($dir, "<piece>"))` in its definition.
    let definition = std::fs::read_to_string("src/pipeline/emit/runtime_core.rs").unwrap();
    let core_pieces: Vec<&str> =
        definition.split("concat!($dir, \"").skip(1).map(|rest| &rest[..rest.find('"').unwrap()]).collect();
    assert!(core_pieces.len() >= 7, "{core_pieces:?}");
    for entry in walkdir::WalkDir::new("src").into_iter().map(|e| e.unwrap()) {
        if entry.path().extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        for marker in ["include_str!(\"", "include_bytes!(\"", "runtime_core!(\""] {
            for (at, _) in text.match_indices(marker) {
                let rest = &text[at + marker.len()..];
                let relative = &rest[..rest.find('"').unwrap()];
                // `runtime_core!("<folder>")` embeds each of the core's pieces from that folder.
                let files = if marker.starts_with("runtime_core") {
                    core_pieces.iter().map(|piece| format!("{relative}{piece}")).collect()
                } else {
                    vec![relative.to_string()]
                };
                for file in files {
                    let path = normalised(&entry.path().parent().unwrap().join(file));
                    embedded.insert(path.to_string_lossy().replace('\\', "/"));
                }
            }
        }
    }
    // build.rs embeds every envelope recorded from a real host (the Workbench's samples).
    let tracked = Command::new("git").args(["ls-files"]).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap();
    assert!(tracked.status.success(), "git ls-files: {}", String::from_utf8_lossy(&tracked.stderr));
    let tracked: BTreeSet<String> = String::from_utf8_lossy(&tracked.stdout).lines().map(str::to_string).collect();
    embedded.extend(
        tracked.iter().filter(|path| path.starts_with("testdata/envelopes/") && path.ends_with(".json")).cloned(),
    );
    assert!(embedded.len() > 40, "{embedded:?}");
    let missing: Vec<&String> = embedded.iter().filter(|path| !packaged.contains(*path)).collect();
    assert!(missing.is_empty(), "the package leaves out files the sources embed: {missing:?}");

    // And nothing else: every packaged file is one git tracks (or one cargo writes itself), so no
    // installed node_modules, built artifact or local file rides along under a pattern that matches
    // at every depth (`README.md` once packaged each package's README under testdata/).
    let written_by_cargo = [".cargo_vcs_info.json", "Cargo.toml.orig"];
    let foreign: Vec<&String> =
        packaged.iter().filter(|path| !tracked.contains(*path) && !written_by_cargo.contains(&path.as_str())).collect();
    assert!(foreign.is_empty(), "the package holds files git does not track: {foreign:?}");
}
