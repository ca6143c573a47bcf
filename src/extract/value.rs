//! The value tree static extraction produces: JSON-like data where every value and key keeps the
//! span it was written at, so later stages can point at the exact token they complain about.

use crate::source::Span;

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

#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    pub key: String,
    pub key_span: Span,
    pub value: Node,
}

impl Value {
    /// What kind of value this is, in the words a message uses ("a string", "an array", …).
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
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

impl Node {
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
