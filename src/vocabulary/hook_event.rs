//! What a hook answers: one of the seven canonical events of a config entry, or an event-route
//! family (D12). Both reach a host's native event through its table; they differ in payload (a
//! config handler gets plain values, a route `{ value, nativeKey }` fields) and in the rules of what
//! a result may hold.

use serde::{Serialize, Serializer};

use super::canonical::{CanonicalEvent, Extra, ResultPart};
use super::family::Family;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HookEvent {
    /// A `hooks.<event>` entry of the config.
    Config(CanonicalEvent),
    /// A module under `src/events/`.
    Route(Family),
}

impl HookEvent {
    /// The event as an author writes it: `beforeTool`, `tool/before`.
    pub fn name(self) -> &'static str {
        match self {
            HookEvent::Config(event) => event.name(),
            HookEvent::Route(family) => family.name,
        }
    }

    /// The config event, for the rules only config entries have (sources, failure policy).
    pub fn config(self) -> Option<CanonicalEvent> {
        match self {
            HookEvent::Config(event) => Some(event),
            HookEvent::Route(_) => None,
        }
    }

    pub fn route(self) -> Option<Family> {
        match self {
            HookEvent::Config(_) => None,
            HookEvent::Route(family) => Some(family),
        }
    }

    /// The event sees tool calls, so a hook of it may select tools.
    pub fn accepts_tools(self) -> bool {
        match self {
            HookEvent::Config(event) => event.accepts_tools(),
            HookEvent::Route(family) => family.tools,
        }
    }

    /// The rule that makes `part` illegal on this event on every host (the page's per-event rules
    /// for config entries, the family rules for routes).
    pub fn refuses(self, part: ResultPart) -> Option<String> {
        match self {
            HookEvent::Config(event) => event.refuses(part).map(str::to_string),
            HookEvent::Route(family) => family.refuses(part),
        }
    }

    /// The rule that makes the extra answer `extra` illegal here: a config event's, or for a route the
    /// same rule read from its family (`env` belongs to a session's start).
    pub fn refuses_extra(self, extra: Extra) -> Option<&'static str> {
        match self {
            HookEvent::Config(event) => extra.refuses(event),
            HookEvent::Route(family) if family.session_env => None,
            HookEvent::Route(_) => extra.refuses(CanonicalEvent::Stop),
        }
    }
}

impl std::fmt::Display for HookEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How data (the manifest's hook index, `inspect --format json`) writes an event: a config event by
/// its name, a route as `route:<family>`, since the `stop` family and the `stop` event share a name.
const ROUTE_PREFIX: &str = "route:";

impl Serialize for HookEvent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            HookEvent::Config(event) => serializer.serialize_str(event.name()),
            HookEvent::Route(family) => serializer.serialize_str(&format!("{ROUTE_PREFIX}{}", family.name)),
        }
    }
}

impl From<CanonicalEvent> for HookEvent {
    fn from(event: CanonicalEvent) -> Self {
        HookEvent::Config(event)
    }
}

impl<'de> serde::Deserialize<'de> for HookEvent {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        let found = match name.strip_prefix(ROUTE_PREFIX) {
            Some(family) => Family::from_name(family).map(HookEvent::Route),
            None => CanonicalEvent::from_name(&name).map(HookEvent::Config),
        };
        found
            .ok_or_else(|| serde::de::Error::custom(format!("`{name}` is neither a config event nor `route:<family>`")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stop_event_and_the_stop_family_stay_apart_in_data() {
        let config = HookEvent::Config(CanonicalEvent::Stop);
        let route = HookEvent::Route(Family::from_name("stop").unwrap());
        let written = serde_json::to_string(&[config, route]).unwrap();
        assert_eq!(written, r#"["stop","route:stop"]"#);
        let read: Vec<HookEvent> = serde_json::from_str(&written).unwrap();
        assert_eq!(read, [config, route]);
        assert_eq!((config.to_string(), route.to_string()), ("stop".to_string(), "stop".to_string()));
        assert!(serde_json::from_str::<HookEvent>(r#""tool/before""#).is_err());
    }
}
