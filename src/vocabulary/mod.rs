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
