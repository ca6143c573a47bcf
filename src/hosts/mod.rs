//! Host tables: what each host can receive, as data (DECISIONS D5). One JSON file per host, pinned to
//! the host version it was observed on, embedded in the binary and parsed once. These tables are the
//! single source for normalisation, planning and `inspect`; nothing else in the crate spells a native
//! event name or matcher.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::canonical::{CanonicalEvent, Selector};
use crate::target::Target;

/// The embedded table files, in [`Target::ALL`] order.
const TABLE_SOURCES: [(Target, &str); 4] = [
    (Target::Claude, include_str!("claude.json")),
    (Target::Codex, include_str!("codex.json")),
    (Target::Cursor, include_str!("cursor.json")),
    (Target::Portable, include_str!("portable.json")),
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HostTable {
    pub target: Target,
    /// The host's product name, for messages.
    pub host: String,
    /// The host version (or docs snapshot) the table describes.
    pub host_version: String,
    /// A stable string naming this table's contract; changes whenever the table is re-pinned.
    pub revision: String,
    /// Where the facts come from.
    pub evidence: String,
    /// `None` for a host with no hook surface.
    pub hooks: Option<HookSurface>,
    #[serde(default)]
    pub no_hooks_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HookSurface {
    /// The plugin-relative path of the host's hook document.
    pub document: String,
    /// The plugin-relative path of the host's plugin manifest.
    pub manifest: String,
    /// The placeholder the host replaces with the installed plugin's root in a hook command.
    pub root_token: String,
    /// What the host waits for a hook when the declaration gives no timeout (`None`: not documented).
    pub default_timeout_seconds: Option<u32>,
    pub events: BTreeMap<CanonicalEvent, Support<EventMapping>>,
    pub selectors: BTreeMap<Selector, Support<SelectorMapping>>,
    /// Tools that run on the vendor's servers and never fire a hook, so selecting them is a mistake.
    #[serde(default)]
    pub hosted_tools: Vec<String>,
}

/// A cell of a host table: either the host's mapping or the recorded reason it has none.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Support<T> {
    Supported(T),
    Unsupported(Unsupported),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unsupported {
    pub unsupported: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventMapping {
    /// The host's own event name, as written in its hook document and in `hook_event_name`.
    pub native: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelectorMapping {
    /// Regex alternatives for the host's tool names (a plain name is its own regex).
    pub matches: Vec<String>,
}

impl<T> Support<T> {
    pub fn supported(&self) -> Result<&T, &str> {
        match self {
            Support::Supported(value) => Ok(value),
            Support::Unsupported(Unsupported { unsupported }) => Err(unsupported),
        }
    }
}

impl HostTable {
    /// The host's mapping of `event`, or why it has none.
    pub fn event(&self, event: CanonicalEvent) -> Result<&EventMapping, &str> {
        match &self.hooks {
            Some(surface) => surface.events[&event].supported(),
            None => Err(self.no_hooks_reason()),
        }
    }

    /// The host's matcher alternatives for `selector`, or why it has none.
    pub fn selector(&self, selector: Selector) -> Result<&SelectorMapping, &str> {
        match &self.hooks {
            Some(surface) => surface.selectors[&selector].supported(),
            None => Err(self.no_hooks_reason()),
        }
    }

    pub fn has_hooks(&self) -> bool {
        self.hooks.is_some()
    }

    fn no_hooks_reason(&self) -> &str {
        self.no_hooks_reason.as_deref().unwrap_or("this host has no hook surface")
    }
}

/// The table of one host.
pub fn table(target: Target) -> &'static HostTable {
    &tables()[target as usize]
}

/// Every host table, in [`Target::ALL`] order.
pub fn tables() -> &'static [HostTable; 4] {
    static TABLES: OnceLock<[HostTable; 4]> = OnceLock::new();
    TABLES.get_or_init(|| {
        TABLE_SOURCES.map(|(target, source)| {
            let table: HostTable = serde_json::from_str(source)
                .unwrap_or_else(|e| panic!("embedded host table for {target} is invalid: {e}"));
            assert_eq!(table.target, target, "host table file for {target} names another target");
            table
        })
    })
}

/// A digest of every host table's bytes: changes whenever any table does, so caches keyed on it
/// are invalidated by a re-pinned host.
pub fn tables_revision() -> String {
    let mut hasher = crate::digest::Sha256Hex::new();
    for (target, source) in TABLE_SOURCES {
        hasher.update(target.name().as_bytes());
        hasher.update(&[0]);
        hasher.update(source.as_bytes());
        hasher.update(&[0]);
    }
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_is_complete_and_every_gap_has_a_reason() {
        for table in tables() {
            match &table.hooks {
                None => assert!(table.no_hooks_reason.as_deref().is_some_and(|r| !r.trim().is_empty())),
                Some(surface) => {
                    assert!(surface.root_token.starts_with("${") && surface.root_token.ends_with('}'));
                    for event in CanonicalEvent::ALL {
                        match surface.events.get(&event) {
                            Some(Support::Unsupported(u)) => assert!(!u.unsupported.trim().is_empty()),
                            Some(Support::Supported(m)) => assert!(!m.native.is_empty()),
                            None => panic!("{} table lacks event {event}", table.target),
                        }
                    }
                    for selector in Selector::ALL {
                        match surface.selectors.get(&selector) {
                            Some(Support::Unsupported(u)) => assert!(!u.unsupported.trim().is_empty()),
                            Some(Support::Supported(m)) => assert!(!m.matches.is_empty()),
                            None => panic!("{} table lacks selector {selector}", table.target),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn tables_carry_the_pinned_host_versions() {
        assert_eq!(table(Target::Claude).host_version, "2.1.332");
        assert_eq!(table(Target::Codex).host_version, "0.171.0");
        assert_eq!(table(Target::Cursor).host_version, "docs 2026-08");
        assert!(!table(Target::Portable).has_hooks());
    }

    #[test]
    fn the_pages_selector_rules_hold() {
        // "Cursor maps all five; Claude Code has no `agent`; Codex has no `agent` and no `file.read`."
        for selector in Selector::ALL {
            assert!(table(Target::Cursor).selector(selector).is_ok(), "cursor {selector}");
        }
        assert!(table(Target::Claude).selector(Selector::Agent).is_err());
        assert!(table(Target::Codex).selector(Selector::Agent).is_err());
        assert!(table(Target::Codex).selector(Selector::FileRead).is_err());
        assert!(table(Target::Claude).selector(Selector::FileRead).is_ok());
    }
}
