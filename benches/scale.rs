//! Build time against the number of hooks in one bundle (issue 23: a build must grow linearly in
//! hooks, and refuse more than `MAX_HOOKS_PER_BUNDLE` at once). Generates one bundle of N `beforeTool`
//! entries sharing one handler for N = 250 … 4096, builds each cold (its own empty cache) and warm
//! (no-op), and prints the time per hook and its ratio to the smallest N's: a ratio near 1.0 is
//! linear growth. Then times the refusal of 20,000 entries. Asserts nothing.
//!
//!   cargo bench --bench scale

use std::path::Path;
use std::time::Instant;

use agent_bundle::driver::{BuildOptions, BuildOutcome, build};
use agent_bundle::io::RealDisk;
use agent_bundle::vocabulary::canonical::MAX_HOOKS_PER_BUNDLE;
use camino::Utf8PathBuf;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn generate(root: &Path, hooks: usize) {
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/guard.ts"), "export default async () => ({});\n").unwrap();
    let mut config = String::from(
        "import { defineConfig } from 'agent-bundle/config';\nexport default defineConfig({\n  plugin: { name: 'scale', description: 'd', version: '1.0.0', author: 'a' },\n  targets: ['claude', 'codex'],\n  hooks: { beforeTool: [\n",
    );
    for index in 1..=hooks {
        config.push_str(&format!("    {{ handler: './src/guard.ts', tools: ['shell'], timeout: {index} }},\n"));
    }
    config.push_str("  ] },\n});\n");
    std::fs::write(root.join("agent-bundle.config.ts"), config).unwrap();
}

fn timed_build(root: &Path, cache: &Path) -> (f64, bool) {
    let options = BuildOptions {
        root: Utf8PathBuf::from_path_buf(root.to_path_buf()).unwrap(),
        cache_dir: Some(Utf8PathBuf::from_path_buf(cache.to_path_buf()).unwrap()),
        ..Default::default()
    };
    let started = Instant::now();
    let report = build(&options, &RealDisk).expect("the build runs");
    (started.elapsed().as_secs_f64() * 1000.0, !matches!(report.outcome, BuildOutcome::Failed))
}

fn main() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    println!("agent-bundle scale benchmark: one bundle of N hooks, two hosts");
    println!(
        "{:>6} {:>12} {:>14} {:>10} {:>12} {:>14}",
        "hooks", "cold ms", "cold ms/hook", "x linear", "no-op ms", "no-op ms/hook"
    );
    let mut base: Option<f64> = None;
    for hooks in [250, 500, 1000, 2000, MAX_HOOKS_PER_BUNDLE] {
        let root = temp.path().join(format!("b{hooks}"));
        generate(&root, hooks);
        let cache = temp.path().join(format!("cache{hooks}"));
        let (cold, ok) = timed_build(&root, &cache);
        assert!(ok, "the {hooks}-hook bundle failed to build");
        let (warm, _) = timed_build(&root, &cache);
        let per_hook = cold / hooks as f64;
        let ratio = per_hook / *base.get_or_insert(per_hook);
        println!("{hooks:>6} {cold:>12.1} {per_hook:>14.3} {ratio:>10.2} {warm:>12.1} {:>14.3}", warm / hooks as f64);
    }
    let root = temp.path().join("b20000");
    generate(&root, 20_000);
    let (refused, ok) = timed_build(&root, &temp.path().join("cache20000"));
    assert!(!ok, "20,000 hooks were not refused");
    println!("{:>6} {refused:>12.1}   refused (AB4237), nothing planned", 20_000);
}
