//! agent-bundle: compile coding-agent hooks declared once (`agent-bundle.config.ts`) into the native
//! plugins of Claude Code, Codex and Cursor.
//!
//! The pipeline, one module per stage (see ARCHITECTURE.md):
//! [`discover`] → [`extract`] → [`config`] → [`normalise`] → [`plan`], run in order by [`engine`].
//! Host knowledge lives in [`hosts`] as data; every message users read is in [`diagnostic::messages`].

pub mod artifact;
pub mod build;
pub mod build_script;
pub mod bundle;
pub mod canonical;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod digest;
pub mod discover;
pub mod emit;
pub mod engine;
pub mod error;
pub mod extract;
pub mod hosts;
pub mod icon;
pub mod incremental;
pub mod inspect;
pub mod io;
pub mod json;
pub mod matrix;
pub mod normalise;
pub mod npm;
pub mod plan;
pub mod simulate;
pub mod snapshot;
pub mod source;
pub mod suggest;
pub mod target;
pub mod workspace;

pub use build_script::build_script;
pub use engine::{Bundle, Loaded, load};
pub use error::{Error, ExitCode};
