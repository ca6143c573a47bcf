//! The incremental build benchmark (issue 5): generates a monorepo of B bundles × H hooks (TypeScript
//! handlers with relative imports of a shared module), then times, each in a fresh process so peak
//! memory is per phase:
//!
//!   cold build · no-op rebuild · one handler edited · one shared module edited · one config edited
//!
//! against two floors, reading and hashing every input once and merely stat-ing every input, and
//! against esbuild bundling the same handlers from a script (its command line once per bundle, and
//! its JavaScript API from one node process). Prints a table of ratios; asserts nothing.
//!
//!   cargo bench --bench incremental -- [BUNDLES] [HOOKS]      (default 200 × 10)

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use agent_bundle::driver::{BuildOptions, build_many};
use agent_bundle::io::RealDisk;
use camino::Utf8PathBuf;
use support::{bundle_roots, generate, io_floor, replace, stat_floor};

#[allow(dead_code, reason = "shared with tests/it, which uses all of it; this uses a part")]
#[path = "../tests/it/common/mod.rs"]
mod common;
mod support;

// The allocator `cargo agent-bundle` runs with.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    if args.first().map(String::as_str) == Some("phase") {
        return run_phase(Path::new(&args[1]), Path::new(&args[2]));
    }
    let bundles: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(200);
    let hooks: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    let temp = tempfile::tempdir().expect("a temporary folder");
    let repo = temp.path().join("repo");
    let cache = temp.path().join("cache");
    generate(&repo, bundles, hooks);

    println!(
        "agent-bundle incremental build benchmark: {bundles} bundles x {hooks} hooks ({} handlers)",
        bundles * hooks
    );
    println!(
        "{:<30} {:>10} {:>14} {:>14} {:>12} {:>12}",
        "phase", "wall ms", "files written", "peak RSS MiB", "x read+hash", "x stat"
    );
    let floor = io_floor(&repo);
    let stat = stat_floor(&repo);
    let row = |name: &str, ms: f64, written: &str, rss: &str| {
        println!("{name:<30} {ms:>10.1} {written:>14} {rss:>14} {:>12.2} {:>12.2}", ms / floor, ms / stat);
    };
    row("floor: read + hash inputs", floor, "-", "-");
    row("floor: stat inputs", stat, "-", "-");

    let esbuild_cli = esbuild_per_bundle(&repo, hooks);
    let esbuild_api = esbuild_one_process(&repo, hooks);
    row("esbuild CLI, once per bundle", esbuild_cli, &(bundles * hooks).to_string(), "-");
    row("esbuild API, one process", esbuild_api, &(bundles * hooks).to_string(), "-");
    let cold = std::cell::Cell::new(0.0);
    let phase = |name: &str, edit: &dyn Fn(&Path)| {
        edit(&repo);
        let (ms, written, rss) = child_phase(&repo, &cache);
        if name == "cold build" {
            cold.set(ms);
        }
        row(name, ms, &written.to_string(), &format!("{:.1}", rss as f64 / 1024.0));
    };
    phase("cold build", &|_| {});
    phase("no-op rebuild", &|_| {});
    phase("one handler edited", &|repo| {
        replace(&repo.join("bundle-000/src/hooks/hook-00.ts"), "refused it", "refused this")
    });
    phase("one shared module edited", &|repo| {
        replace(&repo.join("bundle-000/src/lib/shared.ts"), "'deny'", "'denied'")
    });
    phase("one config edited", &|repo| {
        replace(&repo.join("bundle-000/agent-bundle.config.ts"), "timeout: 5", "timeout: 6")
    });
    // Last, since it rebuilds everything into a second cache.
    println!("{:<30} {:>10.3}", "cold build, ms per hook", last_cold_ms(&repo, &cache, bundles * hooks));
    println!(
        "cold build: {:.2}x faster than esbuild's CLI once per bundle, {:.2}x faster than its API from one process",
        esbuild_cli / cold.get(),
        esbuild_api / cold.get()
    );
}

fn esbuild() -> PathBuf {
    let packages = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/packages");
    common::npm_installed(camino::Utf8Path::from_path(&packages).unwrap());
    packages
}

fn entries(root: &Path, hooks: usize) -> Vec<PathBuf> {
    (0..hooks).map(|h| root.join(format!("src/hooks/hook-{h:02}.ts"))).collect()
}

/// A shell script's way: the esbuild command once per bundle, all its handlers as entry points.
fn esbuild_per_bundle(repo: &Path, hooks: usize) -> f64 {
    let binary = esbuild().join("node_modules/.bin/esbuild");
    let started = Instant::now();
    for root in bundle_roots(repo) {
        let status = Command::new(&binary)
            .args(entries(&root, hooks))
            .args(["--bundle", "--platform=node", "--format=esm", "--target=node18", "--log-level=error"])
            .arg(format!("--outdir={}", root.join("esbuild-out").display()))
            .status()
            .unwrap();
        assert!(status.success());
    }
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    for root in bundle_roots(repo) {
        let _ = std::fs::remove_dir_all(root.join("esbuild-out"));
    }
    ms
}

/// A build script's way: one node process calling esbuild's API once per bundle.
fn esbuild_one_process(repo: &Path, hooks: usize) -> f64 {
    let module = esbuild().join("node_modules/esbuild/lib/main.js");
    let roots: Vec<String> = bundle_roots(repo).iter().map(|r| r.display().to_string()).collect();
    let script = format!(
        "const {{ build }} = require({module:?});
         (async () => {{
           for (const root of {roots:?}) {{
             const entryPoints = Array.from({{ length: {hooks} }}, (_, h) => `${{root}}/src/hooks/hook-${{String(h).padStart(2, '0')}}.ts`);
             await build({{ entryPoints, bundle: true, platform: 'node', format: 'esm', target: 'node18', outdir: `${{root}}/esbuild-out`, logLevel: 'error' }});
           }}
         }})();
",
        module = module.display().to_string(),
    );
    let path = repo.join("esbuild-all.cjs");
    std::fs::write(&path, script).unwrap();
    let started = Instant::now();
    let status = Command::new("node").arg(&path).status().unwrap();
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    assert!(status.success());
    std::fs::remove_file(&path).unwrap();
    for root in bundle_roots(repo) {
        let _ = std::fs::remove_dir_all(root.join("esbuild-out"));
    }
    ms
}

/// Cold cost per hook: one more cold build of a copy, divided by the number of hooks.
fn last_cold_ms(repo: &Path, cache: &Path, hooks: usize) -> f64 {
    let fresh = cache.with_extension("per-hook");
    let _ = std::fs::remove_dir_all(&fresh);
    for root in bundle_roots(repo) {
        let _ = std::fs::remove_dir_all(root.join("artifact"));
    }
    let (ms, _, _) = child_phase(repo, &fresh);
    ms / hooks as f64
}

/// Runs one phase in a child process; returns (ms, files written, peak RSS KiB).
fn child_phase(repo: &Path, cache: &Path) -> (f64, usize, u64) {
    let phase = support::measure(Command::new(std::env::current_exe().unwrap()).arg("phase").arg(repo).arg(cache));
    let fields: Vec<&str> = phase.stdout.split_whitespace().collect();
    (fields[0].parse().unwrap(), fields[1].parse().unwrap(), fields[2].parse().unwrap())
}

/// In the child: build every bundle as `cargo agent-bundle build --recursive` does (side by side),
/// print "ms written peak_rss_kib".
fn run_phase(repo: &Path, cache: &Path) {
    let started = Instant::now();
    let mut written = 0;
    let all: Vec<BuildOptions> = bundle_roots(repo)
        .into_iter()
        .map(|root| BuildOptions {
            root: Utf8PathBuf::from_path_buf(root.clone()).unwrap(),
            output: Some(Utf8PathBuf::from_path_buf(root.join("artifact")).unwrap()),
            cache_dir: Some(Utf8PathBuf::from_path_buf(cache.to_path_buf()).unwrap()),
            ..Default::default()
        })
        .collect();
    for (report, _) in build_many(&all, &RealDisk) {
        let report = report.unwrap();
        assert!(!report.has_errors(), "{:?}", report.diagnostics());
        written += report.write().map_or(0, |w| w.written.len());
    }
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    println!("{ms} {written} {}", support::own_peak_rss_kib());
}
