//! The integration tests, one binary with a module per area (one link of rolldown, oxc, swc and
//! tokio per edit-and-test cycle instead of one per area). A group runs by its path:
//! `cargo test --test it wrapper_fuzz::`; `tests/host_e2e` is the real-host suite, a binary of its own.

mod common;

/// `runtime_core!` (src/pipeline/emit/runtime_core.rs), with which runtime_core and tool_keys read the
/// core's text as the binary embeds it: the file loaded once, before the modules that use it.
#[macro_use]
#[path = "../../src/pipeline/emit/runtime_core.rs"]
mod runtime_core_macro;

mod build;
mod build_script;
mod bundling;
mod cache_keys;
mod cache_property;
mod claude_mod;
mod cli;
mod diagnostics;
mod drift_gate;
mod engines_config;
mod extract_forms;
mod fail_closed;
mod foreign_envelopes;
mod fuzz_config;
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
mod projection;
mod routes;
mod runtime_core;
mod selectors;
mod shared_runtime;
mod shipping;
mod snapshot;
mod tool_identity;
mod tool_keys;
mod turbo_remote_cache;
mod typescript;
mod workbench;
mod wrapper_fuzz;
mod wrappers;
