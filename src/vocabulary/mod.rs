//! The shared vocabulary: what every layer may use and nothing in it depends on another layer. The
//! canonical events and selectors an author writes, the hosts' names, source locations, "did you
//! mean", npm package names, sorted JSON and SHA-256 digests.

pub mod canonical;
pub mod digest;
pub mod family;
pub mod hook_event;
pub mod json;
pub mod native_name;
pub mod nesting;
pub(crate) mod npm;
pub mod part;
pub mod source;
pub(crate) mod suggest;
pub mod target;

/// A name every host carries as is (an MCP server's in its tool names, a command's or agent's file,
/// a skill's folder): letters, digits, `_` and `-`, starting with a letter or digit, at most 64
/// characters.
pub fn is_portable_name(name: &str) -> bool {
    name.len() <= 64
        && name.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}
