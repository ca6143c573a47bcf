//! The Event and hook matrix (DECISIONS D5): rendered from the host tables alone, so the README and
//! `cargo agent-bundle matrix` can never disagree with what the compiler does.

use std::fmt::Write as _;

use crate::canonical::{CanonicalEvent, Selector};
use crate::hosts::{self, ContextChannel, DenyChannel, HostTable, RewriteChannel};
use crate::target::Target;

fn hook_hosts() -> Vec<&'static HostTable> {
    Target::ALL.iter().map(|t| hosts::table(*t)).filter(|t| t.has_hooks()).collect()
}

fn header(first: &str, hosts: &[&HostTable]) -> String {
    let mut line = format!("| {first} |");
    let mut rule = String::from("|---|");
    for host in hosts {
        let _ = write!(line, " {} {} |", host.host, host.host_version);
        rule.push_str("---|");
    }
    format!("{line}\n{rule}\n")
}

/// One row of a host table: each host's cell, or a footnote number pointing at the recorded reason.
fn table_row<'t>(
    out: &mut String,
    reasons: &mut Vec<String>,
    item: impl std::fmt::Display,
    hosts: &[&'t HostTable],
    cell: impl Fn(&'t HostTable) -> Result<String, &'t str>,
) {
    let _ = write!(out, "| `{item}` |");
    for host in hosts {
        match cell(host) {
            Ok(text) => {
                let _ = write!(out, " {text} |");
            }
            Err(reason) => {
                reasons.push(format!("{} has no `{item}`: {reason}", host.host));
                let _ = write!(out, " — ({}) |", reasons.len());
            }
        }
    }
    out.push('\n');
}

/// The matrix as Markdown.
pub fn markdown() -> String {
    let hosts = hook_hosts();
    let mut reasons: Vec<String> = Vec::new();
    let mut out = String::new();

    out.push_str("**Events**: what each host receives for a config-declared hook.\n\n");
    out.push_str(&header("canonical event", &hosts));
    for event in CanonicalEvent::ALL {
        table_row(&mut out, &mut reasons, event, &hosts, |host| host.event(event).map(|m| format!("`{}`", m.native)));
    }

    out.push_str("\n**Tool selectors**: the names each host's matcher accepts (joined as `^(?:…)$`).\n\n");
    out.push_str(&header("selector", &hosts));
    for selector in Selector::ALL {
        table_row(&mut out, &mut reasons, selector, &hosts, |host| {
            host.selector(selector)
                .map(|m| m.matches.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", "))
        });
    }

    out.push_str("\n**Results**: what a handler may return on each event, and how each host receives it.\n\n");
    out.push_str(&header("event", &hosts));
    for event in CanonicalEvent::ALL {
        let _ = write!(out, "| `{event}` |");
        for host in &hosts {
            let Ok(mapping) = host.event(event) else {
                out.push_str(" — |");
                continue;
            };
            let result = &mapping.result;
            let mut parts = vec!["continue".to_string()];
            if let Some(channel) = result.additional_context {
                parts.push(match channel {
                    ContextChannel::HookSpecificOutput => "context: `hookSpecificOutput.additionalContext`".into(),
                    ContextChannel::AdditionalContext => "context: `additional_context`".into(),
                });
            }
            if let Some(channel) = result.deny {
                let how = match channel {
                    DenyChannel::PermissionDecision => "`permissionDecision: \"deny\"`",
                    DenyChannel::DecisionBlock => "`decision: \"block\"`",
                    DenyChannel::CursorPermission => "`permission: \"deny\"`",
                    DenyChannel::FollowupMessage => "`followup_message`",
                };
                let when =
                    result.deny_when.as_ref().map(|c| format!(" when `{}` is {}", c.key, c.equals)).unwrap_or_default();
                parts.push(format!("deny: {how}{when}"));
            }
            if let Some(channel) = result.updated_input {
                let how = match channel {
                    RewriteChannel::HookSpecificOutput => "`hookSpecificOutput.updatedInput`",
                    RewriteChannel::CursorUpdatedInput => "`updated_input`",
                };
                let decision = result
                    .rewrite_decision
                    .as_ref()
                    .map(|d| format!(" with `permissionDecision: \"{d}\"`"))
                    .unwrap_or_default();
                parts.push(format!("rewrite: {how}{decision}"));
            }
            let _ = write!(out, " {} |", parts.join("<br>"));
        }
        out.push('\n');
    }

    out.push_str("\n**Why a cell is empty**\n\n");
    for (index, reason) in reasons.iter().enumerate() {
        let _ = writeln!(out, "{}. {reason}", index + 1);
    }
    out
}
