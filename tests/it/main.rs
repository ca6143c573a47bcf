//! The integration tests, one binary with a module per area (one link of rolldown, oxc, swc and
//! tokio per edit-and-test cycle instead of one per area). A group runs by its path:
//! `cargo test --test it wrapper_fuzz::`; `tests/host_e2e` is the real-host suite, a binary of its own.

mod common;

/// `runtime_core!` (src/pipeline/emit/runtime_core.rs), with which runtime_core and tool_keys read the
/// core's text as the binary embeds it: the file loaded once, before the modules that use it.
#[macro_use]
#[path = "../../src/pipeline/emit/runtime_core.rs"]
mod runtime_core_macro;

mod amp_plugin;
mod build;
mod build_script;
mod bundling;
mod cache_keys;
mod cache_property;
mod claude_mod;
mod cli;
mod cline_hooks;
mod combined;
mod diagnostics;
mod drift_gate;
mod engines_config;
mod extract_forms;
mod fail_closed;
mod foreign_envelopes;
mod fuzz_config;
mod host_place;
mod hostile_input;
mod incremental;
mod install;
mod layering;
mod marketplace;
mod matchers;
mod mcp_servers;
mod monorepo;
mod noop_record;
mod nx_cache;
mod opencode_plugin;
mod packaging;
mod pi_extension;
mod prebuilt;
mod projection;
mod routes;
mod runtime_core;
mod selectors;
mod shared_runtime;
mod shipping;
mod snapshot;
mod test_kit;
mod tool_identity;
mod tool_keys;
mod turbo_remote_cache;
mod typescript;
mod warm_server;
mod workbench;
mod wrapper_fuzz;
mod wrapper_start;
mod wrappers;

/// With `autotests = false` cargo builds no `tests/*.rs` of its own accord: a test file left there, or
/// one under `tests/it/` that this file does not declare, would never run, and nothing would say so.
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    let rust_files = |dir: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let outside = rust_files("tests");
    assert!(
        outside.is_empty(),
        "move {outside:?} to tests/it/ and declare each with `mod <name>;` in tests/it/main.rs"
    );
    let main = std::fs::read_to_string("tests/it/main.rs").unwrap();
    let undeclared: Vec<String> = rust_files("tests/it")
        .into_iter()
        .filter(|m| m != "main" && !main.contains(&format!("\nmod {m};\n")))
        .collect();
    assert!(undeclared.is_empty(), "tests/it/main.rs declares no `mod` for {undeclared:?}");
}
