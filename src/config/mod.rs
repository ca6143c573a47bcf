//! The config model: what `agent-bundle.config.ts` declares, typed but not yet judged. Reading
//! ([`read`]) checks the schema (keys and types); the meaning of the values (do targets exist, do
//! handler files exist, do selectors map) is normalisation's job.

mod read;

pub use read::read_config;

use crate::canonical::CanonicalEvent;
use crate::source::Location;

/// A value with the place it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    pub value: T,
    pub at: Location,
}

#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Hook declarations in canonical event order, then in declaration order within an event.
    pub hooks: Vec<HookDeclaration>,
    pub plugin: Option<PluginConfig>,
    /// The config's top-level `targets`, as written.
    pub targets: Option<Spanned<Vec<Spanned<String>>>>,
    pub payloads: Vec<PayloadDeclaration>,
}

#[derive(Clone, Debug)]
pub struct PluginConfig {
    pub name: Option<Spanned<String>>,
    pub description: Option<String>,
    pub version: Option<String>,
    pub at: Location,
}

#[derive(Clone, Debug)]
pub struct HookDeclaration {
    pub event: CanonicalEvent,
    /// The entry (a bare path or an object) in the config.
    pub at: Location,
    pub handler: HandlerDeclaration,
    pub targets: Option<Spanned<Vec<Spanned<String>>>>,
    /// The declared timeout, a number not yet checked to be a positive whole number of seconds.
    pub timeout: Option<Spanned<f64>>,
    /// Selector strings, trimmed.
    pub tools: Vec<Spanned<String>>,
    pub args: Option<Spanned<Vec<String>>>,
}

#[derive(Clone, Debug)]
pub enum HandlerDeclaration {
    /// A TypeScript or JavaScript module the build compiles.
    Module(Spanned<String>),
    /// An already-built file inside a declared payload.
    Prebuilt(Spanned<String>),
    /// The handler could not be read; its diagnostic has been reported.
    Invalid,
}

#[derive(Clone, Debug)]
pub struct PayloadDeclaration {
    pub name: Spanned<String>,
    pub source: Spanned<String>,
    pub targets: Option<Spanned<Vec<Spanned<String>>>>,
}
