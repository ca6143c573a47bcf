//! How a plugin reaches each host beyond its own folder: the catalog (marketplace) file a
//! repository publishes for it. Data, like the hook tables, but kept apart from them: nothing here
//! changes what a host reads from a plugin, so editing it does not change the tables' revision
//! (which keys caches and is recorded in every artifact).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::Support;
use crate::vocabulary::target::Target;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Distribution {
    /// The catalog file a repository publishes for this host, or why agent-bundle writes none.
    pub catalog: Support<Catalog>,
}

/// A host's catalog of plugins: one file, at a path relative to the repository root.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    pub path: String,
    /// What was observed of the host that says so.
    pub evidence: String,
}

fn all() -> &'static BTreeMap<Target, Distribution> {
    static TABLE: OnceLock<BTreeMap<Target, Distribution>> = OnceLock::new();
    TABLE.get_or_init(|| {
        serde_json::from_str(include_str!("distribution.json"))
            .unwrap_or_else(|e| panic!("embedded distribution table is invalid: {e}"))
    })
}

/// What the table says of `target` (`None` for the portable target, which no host installs).
pub fn distribution(target: Target) -> Option<&'static Distribution> {
    all().get(&target)
}

/// Every catalog path, each with the hosts that read it, sorted by path.
pub fn catalog_paths() -> BTreeMap<&'static str, Vec<Target>> {
    let mut paths: BTreeMap<&str, Vec<Target>> = BTreeMap::new();
    for (target, distribution) in all() {
        if let Ok(catalog) = distribution.catalog.supported() {
            paths.entry(catalog.path.as_str()).or_default().push(*target);
        }
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_host_with_hooks_says_where_its_catalog_is_or_why_there_is_none() {
        for target in Target::ALL {
            let has_hooks = super::super::table(target).hooks.is_some();
            assert_eq!(distribution(target).is_some(), has_hooks, "{target}");
            if let Some(distribution) = distribution(target) {
                match distribution.catalog.supported() {
                    Ok(catalog) => {
                        assert!(catalog.path.ends_with(".json") && !catalog.path.starts_with('/'), "{target}");
                        assert!(!catalog.evidence.is_empty(), "{target}");
                    }
                    Err(reason) => assert!(reason.len() > 40, "{target}: give the reason"),
                }
            }
        }
    }
}
