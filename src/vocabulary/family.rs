//! The event-route families (D12): the 22 families a route file under `src/events/` may answer, with
//! the family-level rules the page and the original state (which families may deny, which see tool
//! calls). Hosts map them to native events in their tables.

/// One event-route family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Family {
    /// `group/name`, or one segment (`stop`).
    pub name: &'static str,
    /// The family may deny (or block) at all; a host's projection can be stricter.
    pub deny: bool,
    /// The family sees tool calls, so a route may filter by `tools`.
    pub tools: bool,
}

const fn family(name: &'static str, deny: bool, tools: bool) -> Family {
    Family { name, deny, tools }
}

/// Every family, in the order the original lists them.
pub const FAMILIES: [Family; 22] = [
    family("session/start", false, false),
    family("tool/before", true, true),
    family("tool/after", false, true),
    family("stop", true, false),
    family("agent/start", true, false),
    family("agent/stop", true, false),
    family("workspace/open", false, false),
    family("session/end", false, false),
    family("prompt/submit", true, false),
    family("tool/failure", false, true),
    family("compact/before", true, false),
    family("compact/after", false, false),
    family("permission/request", true, true),
    family("permission/denied", false, true),
    family("stop/failure", false, false),
    family("file/change", false, false),
    family("config/change", true, false),
    family("task/create", true, false),
    family("task/complete", false, false),
    family("agent/idle", true, false),
    family("model-switch/before", true, false),
    family("model-switch/after", false, false),
];

impl Family {
    pub fn from_name(name: &str) -> Option<Family> {
        FAMILIES.into_iter().find(|f| f.name == name)
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_two_distinct_families_of_one_or_two_segments() {
        let mut names: Vec<&str> = FAMILIES.iter().map(|f| f.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 22);
        assert!(FAMILIES.iter().all(|f| f.name.split('/').count() <= 2));
        assert_eq!(FAMILIES.iter().filter(|f| !f.name.contains('/')).map(|f| f.name).collect::<Vec<_>>(), ["stop"]);
    }
}
