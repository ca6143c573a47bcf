//! Diagnostics: one struct per reported problem, a stable code, labels with source locations, and a
//! hint. Stages return `(value, Vec<Diagnostic>)`; the orchestrator collects and sorts them.
//! Every user-facing message is written in [`messages`], so the wording can be reviewed in one place.

mod code;
pub mod messages;
mod render;
mod subject;

use serde::{Deserialize, Serialize};

pub use code::Code;
pub use render::{render_human, render_json, to_json_value};
pub use subject::{Found, HookSite, HostName, Obstruction};

use crate::vocabulary::source::Location;
use crate::vocabulary::target::Target;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// What a stage returns: its value, and the diagnostics it found on the way. The value is there even
/// when there are errors (it holds what could be read), so later stages can still report their own.
#[derive(Clone, Debug)]
pub struct Staged<T> {
    pub value: T,
    pub diagnostics: Vec<Diagnostic>,
}

/// A source location with the short text printed under it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Label {
    #[serde(flatten)]
    pub location: Location,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// The first label is the primary one: the place the message is about.
    pub labels: Vec<Label>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
}

impl Diagnostic {
    /// A diagnostic with the code's own severity.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            severity: code.severity(),
            message: message.into(),
            labels: Vec::new(),
            hint: None,
            notes: Vec::new(),
            target: None,
        }
    }

    pub fn at(mut self, location: Option<&Location>, label: impl Into<String>) -> Self {
        if let Some(location) = location {
            self.labels.push(Label { location: location.clone(), message: label.into() });
        }
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn for_target(mut self, target: Target) -> Self {
        self.target = Some(target);
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn primary_location(&self) -> Option<&Location> {
        self.labels.first().map(|label| &label.location)
    }
}

/// Orders diagnostics by where they point (file, line, column), then by code, keeping unlocated
/// ones last, so that output does not depend on the order in which checks ran.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        let key = |d: &Diagnostic| d.primary_location().map(|l| (l.file.clone(), l.line, l.column));
        match (key(a), key(b)) {
            (Some(x), Some(y)) => x.cmp(&y).then(a.code.cmp(&b.code)),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => a.code.cmp(&b.code),
        }
    });
}

pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}
