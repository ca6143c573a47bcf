//! agent-bundle: compile coding-agent hooks declared once (`agent-bundle.config.ts`) into the native
//! plugins of every host in the host tables ([`hosts::products`]: Claude Code, Codex CLI, GitHub
//! Copilot CLI, Cursor, Factory Droid, Gemini CLI, OpenCode and Qwen Code).
//!
//! The crate reads top to bottom as the product works (see ARCHITECTURE.md):
//! - [`vocabulary`]: the words every layer shares (canonical events and selectors, targets, source
//!   locations, JSON and digests);
//! - [`hosts`]: what each host can receive, as data;
//! - [`diagnostic`]: every problem users read about, with codes and messages;
//! - [`artifact`]: what a built plugin folder is: its files and its manifest;
//! - [`pipeline`]: the stages, in order: discover → extract → config → normalise → plan → bundle →
//!   emit; [`pipeline::load`] runs the stages up to the plan;
//! - [`driver`]: building artifacts, in rustc_driver's sense: the orchestrator of the whole
//!   pipeline for one bundle, the tree of bundles (`--recursive`, workspaces, catalogs, `--check`),
//!   the incremental state and its explanation, the no-op record and `build.rs` support; the CLI and
//!   a `build.rs` call the same functions;
//! - [`io`]: reading sources, the cache store, the atomic artifact writer;
//! - [`tools`]: what works on a bundle or an artifact: `inspect`, `hooks simulate`, `snapshot`, the
//!   matrix;
//! - [`cli`]: the command line.

pub mod artifact;
pub mod cli;
pub mod diagnostic;
pub mod driver;
pub mod hosts;
pub mod io;
pub mod pipeline;
pub mod tools;
pub mod vocabulary;

pub use cli::error::{Error, ExitCode};
pub use driver::script::build_script;
pub use pipeline::{Bundle, Loaded, load};
