//! A crate that ships a hook plugin built by its build script.

/// The plugin folder the build script wrote.
pub const ARTIFACT: &str = env!("AGENT_BUNDLE_ARTIFACT");
