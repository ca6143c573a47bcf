//! The config's schema: keys, types, the plugin's name, metadata and icon.

use super::list;
use crate::diagnostic::{Code, Diagnostic, Found};
use crate::vocabulary::canonical::CanonicalEvent;
use crate::vocabulary::source::Location;
use crate::vocabulary::suggest::did_you_mean;

/// Keys people bring from the hosts' own formats, and what agent-bundle spells instead.
const FOREIGN_KEYS: &[(&str, &str)] = &[
    ("matcher", "write canonical selectors in `tools`; agent-bundle derives each host's matcher from them"),
    ("timeoutMs", "write `timeout` in whole seconds"),
    ("timeoutSec", "write `timeout` in whole seconds"),
    ("command", "point `handler` at a module; agent-bundle writes each host's command"),
];

pub fn unknown_key(key: &str, context: &str, known: &[&str], at: &Location) -> Diagnostic {
    let diagnostic =
        Diagnostic::new(Code::UnknownKey, format!("unknown key `{key}` in {context}")).at(Some(at), "not a known key");
    if let Some((_, advice)) = FOREIGN_KEYS.iter().find(|(foreign, _)| *foreign == key) {
        return diagnostic.hint(*advice);
    }
    match did_you_mean(key, known.iter().copied()) {
        Some(suggestion) => diagnostic.hint(format!("did you mean `{suggestion}`?")),
        None => diagnostic.hint(format!("{context} accepts {}", list(known))),
    }
}

pub fn unknown_event(key: &str, at: &Location) -> Diagnostic {
    let events = CanonicalEvent::ALL.map(CanonicalEvent::name);
    let diagnostic =
        Diagnostic::new(Code::UnknownEvent, format!("`{key}` is not a hook event")).at(Some(at), "unknown event");
    match did_you_mean(key, events) {
        Some(suggestion) => diagnostic.hint(format!("did you mean `{suggestion}`?")),
        None => diagnostic.hint(format!("config hooks are keyed by one of {}", list(events))),
    }
}

pub fn wrong_type(what: &str, expected: &str, found: &Found, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::WrongType, format!("{what} must be {expected}, found {} `{}`", found.kind, found.preview))
        .at(Some(at), format!("expected {expected}"))
        .hint(format!("write {what} as {expected}"))
}

pub fn missing_key(key: &str, context: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::MissingKey, format!("{context} has no `{key}`"))
        .at(Some(at), format!("`{key}` is required here"))
        .hint(format!("add `{key}: …` to {context}"))
}

pub fn invalid_plugin_name(name: &str, suggestion: &str, at: &Location) -> Diagnostic {
    let diagnostic = Diagnostic::new(Code::InvalidPluginName, format!("plugin name `{name}` is not kebab-case"))
        .at(Some(at), "hosts reject this name")
        .note("the name is the plugin's id on every host; Claude Code, Codex and Cursor load a plugin only under a name of lowercase letters, digits and single hyphens");
    if suggestion.is_empty() {
        diagnostic.hint("use a name such as `my-plugin`")
    } else {
        diagnostic.hint(format!("use `{suggestion}`"))
    }
}

pub fn incomplete_plugin_metadata(missing: &[&str], plugin_at: Option<&Location>) -> Diagnostic {
    Diagnostic::new(Code::IncompletePluginMetadata, format!("the plugin has no {}", missing.join(", no ")))
        .at(plugin_at, "incomplete plugin details")
        .note("Claude Code's `claude plugin validate --strict` fails on a plugin without an author, a description and a version")
        .hint(format!(
            "add {} to `plugin` (for example `author: 'Your Name <you@example.com>'`), or to the bundle's package.json",
            list(missing)
        ))
}

pub fn icon_invalid(written: &str, problem: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::InvalidIcon, format!("`plugin.icon` `{written}` {problem}"))
        .at(Some(at), "not a PNG in the bundle")
        .hint("point `plugin.icon` at a square PNG inside the bundle (512 to 2048 pixels), or leave it out")
}

pub fn icon_unsuitable(written: &str, problem: &str, at: Option<&Location>) -> Diagnostic {
    Diagnostic::new(
        Code::UnsuitableIcon,
        format!("the plugin icon `{written}` would be refused by the Claude plugin directory: {problem}"),
    )
    .at(at, "unsuitable icon")
    .note("the icon is still shipped; hosts that do not list plugins in a directory ignore it")
    .hint("use a square PNG of 512 to 2048 pixels on each side, under 2 MB")
}
