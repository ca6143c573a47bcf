//! What messages are about, as plain values: the catalogue of messages takes these, never a stage's
//! own types, so diagnostics sit below every stage and no stage's change reaches them.

use crate::vocabulary::hook_event::HookEvent;
use crate::vocabulary::source::Location;
use crate::vocabulary::target::Target;

/// A hook as a message names it.
#[derive(Clone, Copy, Debug)]
pub struct HookSite<'a> {
    pub name: &'a str,
    pub event: HookEvent,
    pub targets: &'a [Target],
    /// The hook's entry in the config: where hook-level errors point.
    pub declared_at: &'a Location,
    /// Its `tools`, when it has any.
    pub tools_at: Option<&'a Location>,
}

/// A host as a message names it.
#[derive(Clone, Copy, Debug)]
pub struct HostName<'a> {
    pub target: Target,
    /// The product's name (`Claude Code`).
    pub host: &'a str,
    /// The pinned version (`2.1.332`).
    pub version: &'a str,
}

/// How something no build wrote stands in a new artifact's way.
#[derive(Clone, Copy, Debug)]
pub enum Obstruction<'a> {
    /// The build writes other bytes at its path.
    Replaced,
    /// The build needs a folder at its path, for `inner`.
    NeedsFolder { inner: &'a str },
    /// The build writes the file `file`, and this lies inside a folder of that name.
    InsideFile { file: &'a str },
}

/// A value found where another kind was expected: its kind (`a string`) and a short preview.
#[derive(Clone, Debug)]
pub struct Found {
    pub kind: &'static str,
    pub preview: String,
}
