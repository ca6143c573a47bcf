//! Fingerprints the compiler's own sources, so that the compile cache never serves modules compiled
//! by a different build of agent-bundle, even one with the same version number.

use std::path::Path;

fn main() {
    let mut files = Vec::new();
    collect(Path::new("src"), &mut files);
    files.sort();
    // FNV-1a over paths and contents: a fingerprint, not a security boundary.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        for byte in file.to_string_lossy().bytes().chain(std::fs::read(file).unwrap_or_default()) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    // The locked crates too: a new rolldown or oxc is a new compiler, even with the same sources.
    println!("cargo:rerun-if-changed=Cargo.lock");
    for byte in std::fs::read("Cargo.lock").unwrap_or_default() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    println!("cargo:rustc-env=AGENT_BUNDLE_SOURCE_FINGERPRINT={hash:016x}");
}

fn collect(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}
