//! The remote cache benchmark (issue 28): generates an npm-workspaces monorepo of B bundle packages ×
//! H beforeTool hooks (each with its own handler file, as benches/support's `generate` writes them),
//! declares it to Turborepo with `init --monorepo turbo`, commits it, and times with the real tools
//! (turbo 2.11.13 and turborepo-remote-cache 2.12.0 on 127.0.0.1, pinned in testdata/engines; the
//! helpers are tests/it/turbo_remote_cache.rs's):
//!
//!   (a) a CI-like cold build of the whole workspace through `turbo run build`: no cache anywhere
//!       (remote, turbo's local cache, agent-bundle's), every bundle built and uploaded;
//!   (b) the same on a second clone at another path, with empty local caches and the remote cache
//!       warm: every bundle a remote hit, nothing built;
//!
//! and prints both wall times (the turbo process, start to exit), their ratio and the hits. Asserts
//! nothing about the figures (a failed turbo run still fails it).
//!
//!   cargo bench --bench remote_cache -- [BUNDLES] [HOOKS]      (default 200 × 10)

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

#[allow(dead_code, reason = "shared with tests/it, which uses all of it; this uses a part")]
#[path = "../tests/it/common/mod.rs"]
mod common;
#[allow(dead_code, unused_imports)]
#[path = "../tests/it/turbo_remote_cache.rs"]
mod remote;
mod support;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let bundles: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(200);
    let hooks: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    let engines = remote::engines();
    let temp = support::scratch_dir("agent-bundle-remote-cache-");
    let server = remote::CacheServer::start(&engines, &temp.path().join("server"));

    let a = remote::Checkout::new(temp.path().join("a/ws"), &temp.path().join("a"));
    write_workspace(&a.ws, bundles, hooks);
    remote::declare_and_commit(&a);
    // `init --monorepo` built every bundle to see what it reads, into the default cache of A's home:
    // the cold build must find nothing.
    let _ = std::fs::remove_dir_all(a.home.join(".cache"));
    let b = remote::Checkout::clone_of(&a, temp.path().join("b/some/deeper/ws"), &temp.path().join("b"));
    let compiler = remote::compiler_id(&a.home);
    // A hang guard, not a budget.
    let limit = Duration::from_secs(600 + 10 * bundles as u64);

    println!(
        "agent-bundle remote cache benchmark: {bundles} bundles x {hooks} hooks ({} handlers), turbo 2.11.13, turborepo-remote-cache 2.12.0",
        bundles * hooks
    );
    let started = Instant::now();
    let cold = remote::turbo_build(&engines, &a, &server, &compiler, limit);
    let cold_ms = started.elapsed().as_secs_f64() * 1000.0;
    let started = Instant::now();
    let warm = remote::turbo_build(&engines, &b, &server, &compiler, limit);
    let warm_ms = started.elapsed().as_secs_f64() * 1000.0;

    let count = |run: &remote::TurboRun, status: &str, source: Option<&str>| {
        run.tasks.values().filter(|t| t.status == status && (source.is_none() || t.source.as_deref() == source)).count()
    };
    let identical = support::bundle_roots(&a.ws.join("bundles"))
        .iter()
        .filter(|root| {
            let name = root.file_name().unwrap().to_str().unwrap();
            let dir = |ws: &Path| ws.join("bundles").join(name).join("artifact");
            dir(&a.ws).is_dir() && dir(&b.ws).is_dir() && a.artifact(name) == b.artifact(name)
        })
        .count();
    let stored_bytes: u64 = std::fs::read_dir(server.storage.join(remote::TEAM))
        .map(|entries| entries.filter_map(|e| e.ok()?.metadata().ok()).map(|m| m.len()).sum())
        .unwrap_or(0);

    println!("{:<58} {:>10} {:>8} {:>8}", "phase", "wall ms", "built", "hits");
    println!(
        "{:<58} {:>10.0} {:>8} {:>8}",
        "(a) cold: no cache anywhere, every bundle built + uploaded",
        cold_ms,
        count(&cold, "MISS", None),
        count(&cold, "HIT", None)
    );
    println!(
        "{:<58} {:>10.0} {:>8} {:>8}",
        "(b) second clone, remote cache warm",
        warm_ms,
        count(&warm, "MISS", None),
        count(&warm, "HIT", Some("REMOTE"))
    );
    println!("ratio cold / warm: {:.1}x", cold_ms / warm_ms);
    println!(
        "remote hits: {} of {bundles}; artifacts byte-identical to the first clone's: {identical} of {bundles}; agent-bundle cache files in the second clone: {}; {} artifacts stored, {:.1} MiB",
        count(&warm, "HIT", Some("REMOTE")),
        b.agent_bundle_cache_files(),
        server.stored_count(),
        stored_bytes as f64 / 1024.0 / 1024.0
    );
}

/// An npm-workspaces monorepo at `ws`: `bundles/bundle-NNN` from benches/support's `generate`, each
/// made a workspace package whose `build` script is agent-bundle's, the root package.json (with the
/// engines fixture's `packageManager`) and its lockfile.
fn write_workspace(ws: &Path, bundles: usize, hooks: usize) {
    let folder = ws.join("bundles");
    support::generate(&folder, bundles, hooks);
    let fixture: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(remote::WORKSPACE).join("package.json")).expect("the engines workspace"),
    )
    .unwrap();
    let mut packages = serde_json::Map::new();
    packages
        .insert(String::new(), json!({ "name": "hooks-benchmark", "version": "1.0.0", "workspaces": ["bundles/*"] }));
    for root in support::bundle_roots(&folder) {
        let name = root.file_name().unwrap().to_str().unwrap().to_string();
        let package = format!("@bench/{name}");
        let manifest = json!({
            "name": package,
            "version": "1.0.0",
            "private": true,
            "scripts": { "build": "cargo-agent-bundle agent-bundle build" },
        });
        std::fs::write(root.join("package.json"), serde_json::to_string_pretty(&manifest).unwrap() + "\n").unwrap();
        packages.insert(format!("bundles/{name}"), json!({ "name": package, "version": "1.0.0" }));
        packages
            .insert(format!("node_modules/{package}"), json!({ "resolved": format!("bundles/{name}"), "link": true }));
    }
    let root = json!({
        "name": "hooks-benchmark",
        "version": "1.0.0",
        "private": true,
        "packageManager": fixture["packageManager"],
        "workspaces": ["bundles/*"],
    });
    std::fs::write(ws.join("package.json"), serde_json::to_string_pretty(&root).unwrap() + "\n").unwrap();
    let lock = json!({ "name": "hooks-benchmark", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": packages });
    std::fs::write(ws.join("package-lock.json"), serde_json::to_string_pretty(&lock).unwrap() + "\n").unwrap();
}
