//! Installing the benchmarks' pinned npm packages (and the esbuild they compare against).

use std::path::Path;
use std::process::Command;

/// Installs `dir`'s packages from its lockfile when its node_modules does not match it.
pub fn install(dir: &Path) {
    let lock = std::fs::read(dir.join("package-lock.json")).unwrap();
    let wanted = agent_bundle::digest::sha256_hex(&lock);
    let stamp = dir.join("node_modules/.agent-bundle-installed");
    if std::fs::read_to_string(&stamp).is_ok_and(|s| s == wanted) {
        return;
    }
    let status = Command::new("npm")
        .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund"])
        .current_dir(dir)
        .status()
        .expect("the benchmark installs its packages with npm");
    assert!(status.success(), "npm ci in {} failed", dir.display());
    std::fs::write(stamp, wanted).unwrap();
}
