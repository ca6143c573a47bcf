//! Every user-facing diagnostic message, one constructor per diagnostic, so the wording (message,
//! label, hint) can be reviewed in one place. Messages name the offending key or value; hints say
//! what to write instead.
//!
//! One file per stage or area, each message a constructor returning a [`Diagnostic`] (its code,
//! message, labels, notes and hint, as data that the renderers alone turn into text); every
//! constructor is re-exported here, so callers name `messages::foo` whatever file it is in. The
//! helpers the files share are below.

mod bundle;
mod catalog;
mod config;
mod emit;
mod extract;
mod handlers;
mod hooks;
mod install;
mod mcp;
mod parts;
mod payloads;
mod plan;
mod routes;
mod selectors;

pub use bundle::*;
pub use catalog::*;
pub use config::*;
pub use emit::*;
pub use extract::*;
pub use handlers::*;
pub use hooks::*;
pub use install::*;
pub use mcp::*;
pub use parts::*;
pub use payloads::*;
pub use plan::*;
pub use routes::*;
pub use selectors::*;

use crate::diagnostic::{Code, Diagnostic, HostName};
use crate::vocabulary::source::Location;
use crate::vocabulary::suggest::did_you_mean;
use crate::vocabulary::target::Target;

fn list(items: impl IntoIterator<Item = impl std::fmt::Display>) -> String {
    items.into_iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", ")
}

fn target_names(targets: &[Target]) -> String {
    if targets.is_empty() { "none".to_string() } else { list(targets) }
}

/// `key` holds `value`, which is none of `allowed`: "did you mean" when one is close, else `otherwise`.
fn not_one_of(code: Code, key: &str, value: &str, allowed: &[&str], at: &Location, otherwise: String) -> Diagnostic {
    let diagnostic = Diagnostic::new(code, format!("`{key}` is `{value}`, not one of {}", list(allowed.iter())))
        .at(Some(at), "unknown value");
    match did_you_mean(value, allowed.iter().copied()) {
        Some(suggestion) => diagnostic.hint(format!("did you mean `{suggestion}`?")),
        None => diagnostic.hint(otherwise),
    }
}

fn through(chain: &[String]) -> String {
    if chain.is_empty() { String::new() } else { format!(" (through {})", list(chain)) }
}

fn kebab(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() { "my-plugins".to_string() } else { out }
}

/// `what` is not placed for the hosts of `unplaced` (each with its reason, as a note); `hint` gets
/// those hosts' target names, listed.
fn not_placed(
    code: Code,
    what: &str,
    unplaced: &[(HostName, String)],
    (at, label): (&Location, &str),
    hint: impl FnOnce(String) -> String,
) -> Diagnostic {
    let hosts: Vec<String> = unplaced.iter().map(|(host, _)| format!("{} {}", host.host, host.version)).collect();
    let mut diagnostic =
        Diagnostic::new(code, format!("{what} is not placed for {}", hosts.join(", "))).at(Some(at), label);
    for (host, reason) in unplaced {
        diagnostic = diagnostic.note(format!("{}: {reason}", host.target));
    }
    diagnostic.hint(hint(list(unplaced.iter().map(|(host, _)| host.target))))
}
