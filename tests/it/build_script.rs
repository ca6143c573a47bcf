//! `agent_bundle::build_script()` from a real package's build.rs (testdata/build-script-example):
//! it builds the bundle, tells cargo what to watch, and turns errors into a failed build.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::copy_tree;

/// The example, copied to a temporary folder with its path dependency made absolute, and built with
/// a target folder kept between runs so only the first run compiles agent-bundle for it.
fn cargo_build(example: &Path) -> std::process::Output {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--offline", "--manifest-path"])
        .arg(example.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", Path::new(env!("CARGO_MANIFEST_DIR")).join("target/build-script-example"))
        // The build script builds the bundle: into a cache of its own, not the developer's.
        .env("AGENT_BUNDLE_CACHE_DIR", common::sandbox_dir("build-script-cache"))
        .output()
        .unwrap()
}

fn example() -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let example = temp.path().join("example");
    copy_tree(Path::new("testdata/build-script-example"), &example);
    let manifest = example.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest)
        .unwrap()
        .replace("path = \"../..\"", &format!("path = {:?}", env!("CARGO_MANIFEST_DIR")));
    std::fs::write(&manifest, text).unwrap();
    // The same dependency versions as agent-bundle itself, so the build needs no registry.
    std::fs::copy("Cargo.lock", example.join("Cargo.lock")).unwrap();
    (temp, example)
}

#[test]
fn a_build_script_builds_the_bundle_and_reports_errors_as_a_failed_build() {
    let (_temp, example) = example();
    let built = cargo_build(&example);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));

    // The build script's instructions to cargo, from its recorded output.
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/build-script-example/debug/build");
    let outputs: Vec<String> = std::fs::read_dir(&target)
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.unwrap().path().join("output")).ok())
        .filter(|text| text.contains(example.to_str().unwrap()))
        .collect();
    let output = outputs.first().expect("the build script ran");
    for watched in ["agent-bundle.config.ts", "src/hooks/start.ts"] {
        let line = format!("cargo:rerun-if-changed={}", example.join(watched).display());
        assert!(output.contains(&line), "missing {line} in:\n{output}");
    }
    let artifact = output.lines().find_map(|l| l.strip_prefix("cargo:rustc-env=AGENT_BUNDLE_ARTIFACT=")).unwrap();
    assert!(Path::new(artifact).join("agent-bundle.manifest.json").is_file());

    // A mistake in the bundle fails the crate's build with the diagnostic.
    std::fs::remove_file(example.join("src/hooks/start.ts")).unwrap();
    let failed = cargo_build(&example);
    assert!(!failed.status.success());
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(stderr.contains("AB4220"), "{stderr}");
}
