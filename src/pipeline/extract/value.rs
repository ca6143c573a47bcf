//! The value tree static extraction produces: JSON-like data where every value and key keeps the
//! span it was written at, so later stages can point at the exact token they complain about.

use crate::vocabulary::source::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Node>),
    Object(Vec<Property>),
    /// A value that could not be read statically. Its diagnostic has already been reported;
    /// later stages skip it silently instead of piling a second error on top.
    Unreadable,
}

/// The key of the placeholder property an unreadable `...spread` leaves in an object, so readers
/// know the object may hold keys they cannot see (and do not report them missing).
pub const SPREAD_KEY: &str = "...";

#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    pub key: String,
    pub key_span: Span,
    pub value: Node,
}

impl Value {
    /// What kind of value this is, in the words a message uses ("a string", "an array", …).
    /// The value as a message shows it when another kind was expected.
    pub fn found(&self) -> crate::diagnostic::Found {
        crate::diagnostic::Found { kind: self.kind(), preview: self.preview() }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
            Value::Unreadable => "an unreadable value",
        }
    }

    /// The value as the source would show it, shortened, for messages.
    pub fn preview(&self) -> String {
        const MAX: usize = 40;
        let text = match self {
            Value::Null => "null".to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => format_number(*n),
            Value::String(s) => format!("{s:?}").replace('\\', "").replace('"', "'"),
            Value::Array(items) => format!("[…{} item{}]", items.len(), if items.len() == 1 { "" } else { "s" }),
            Value::Object(_) => "{…}".to_string(),
            Value::Unreadable => "…".to_string(),
        };
        if text.chars().count() > MAX {
            let cut: String = text.chars().take(MAX - 1).collect();
            format!("{cut}…")
        } else {
            text
        }
    }
}

/// Prints a number the way JavaScript would (`3`, not `3.0`).
pub fn format_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 { format!("{}", n as i64) } else { format!("{n}") }
}

impl Node {
    /// The value as JSON (spans dropped; an unreadable value becomes `null`), in written key order
    /// turned into sorted order by `serde_json`'s map.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as Json;
        match &self.value {
            Value::Null | Value::Unreadable => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Json::from(*n as i64),
            Value::Number(n) => serde_json::Number::from_f64(*n).map_or(Json::Null, Json::Number),
            Value::String(s) => Json::String(s.clone()),
            Value::Array(items) => Json::Array(items.iter().map(Node::to_json).collect()),
            Value::Object(properties) => {
                Json::Object(properties.iter().map(|p| (p.key.clone(), p.value.to_json())).collect())
            }
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_unreadable(&self) -> bool {
        matches!(self.value, Value::Unreadable)
    }
}
