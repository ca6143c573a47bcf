//! The shape of a host's answer: for each part of a result and each answer channel of the host
//! tables, the JSON fields the answer sets. Described once, here: the wrapper's runtime writes an
//! answer by applying these writes (they are baked into its contract), `hooks simulate` reads an
//! answer back by matching them, and the matrix names them.

use serde::Serialize;
use serde_json::Value;

use super::{ContextChannel, DenyChannel, PermissionChannel, ResultChannels, RewriteChannel};
use crate::vocabulary::canonical::ResultPart;

/// One field an answer sets: a dotted path (`hookSpecificOutput.permissionDecision`) and either a
/// fixed value or the part's own value (the reason, the context, the replacement input).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnswerWrite {
    pub path: &'static str,
    /// The fixed value; `None` writes the part's own value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// Set only when no other part set the field (the decision a rewrite needs, unless the handler
    /// made one).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub if_absent: bool,
}

/// An answer object that names the host's event: whenever an answer has `hookSpecificOutput`, it
/// also holds `hookEventName` with the native event (Claude Code and Codex require it).
pub const EVENT_NAMED_OBJECT: (&str, &str) = ("hookSpecificOutput", "hookEventName");

fn fixed(path: &'static str, value: &str) -> AnswerWrite {
    AnswerWrite { path, value: Some(Value::from(value)), if_absent: false }
}

fn fixed_bool(path: &'static str, value: bool) -> AnswerWrite {
    AnswerWrite { path, value: Some(Value::from(value)), if_absent: false }
}

fn own(path: &'static str) -> AnswerWrite {
    AnswerWrite { path, value: None, if_absent: false }
}

fn unless_set(path: &'static str, value: &str) -> AnswerWrite {
    AnswerWrite { if_absent: true, ..fixed(path, value) }
}

/// What an answer sets for `part` on an event with these channels (empty: no channel).
pub fn writes(channels: &ResultChannels, part: ResultPart) -> Vec<AnswerWrite> {
    let decision = |channel: Option<PermissionChannel>, value: &str| match channel {
        Some(PermissionChannel::PermissionDecision) => vec![fixed("hookSpecificOutput.permissionDecision", value)],
        Some(PermissionChannel::CursorPermission) => vec![fixed("permission", value)],
        Some(PermissionChannel::TopLevelPermissionDecision) => vec![fixed("permissionDecision", value)],
        Some(PermissionChannel::PermissionBehavior) => vec![fixed("hookSpecificOutput.decision.behavior", value)],
        None => Vec::new(),
    };
    match part {
        ResultPart::AdditionalContext => match channels.additional_context {
            Some(ContextChannel::HookSpecificOutput) => vec![own("hookSpecificOutput.additionalContext")],
            Some(ContextChannel::AdditionalContext) => vec![own("additional_context")],
            Some(ContextChannel::TopLevel) => vec![own("additionalContext")],
            Some(ContextChannel::AppendOutput) => vec![own("appendOutput")],
            Some(ContextChannel::System) => vec![own("system")],
            Some(ContextChannel::Context) => vec![own("context")],
            None => Vec::new(),
        },
        ResultPart::Deny => match channels.deny {
            Some(DenyChannel::PermissionDecision) => vec![
                fixed("hookSpecificOutput.permissionDecision", "deny"),
                own("hookSpecificOutput.permissionDecisionReason"),
            ],
            Some(DenyChannel::DecisionBlock) => vec![fixed("decision", "block"), own("reason")],
            Some(DenyChannel::CursorPermission) => {
                vec![fixed("permission", "deny"), own("user_message"), own("agent_message")]
            }
            Some(DenyChannel::FollowupMessage) => vec![own("followup_message")],
            Some(DenyChannel::DecisionDeny) => vec![fixed("decision", "deny"), own("reason")],
            Some(DenyChannel::TopLevelPermissionDecision) => {
                vec![fixed("permissionDecision", "deny"), own("permissionDecisionReason")]
            }
            Some(DenyChannel::PermissionBehavior) => {
                vec![fixed("hookSpecificOutput.decision.behavior", "deny"), own("hookSpecificOutput.decision.message")]
            }
            Some(DenyChannel::ContinueStopReason) => vec![fixed_bool("continue", false), own("stopReason")],
            Some(DenyChannel::ContinueUserMessage) => vec![fixed_bool("continue", false), own("user_message")],
            Some(DenyChannel::Throw) => vec![own("throw")],
            Some(DenyChannel::Deny) => vec![own("deny")],
            Some(DenyChannel::Block) => vec![own("block")],
            Some(DenyChannel::FollowUp) => vec![own("followUp")],
            None => Vec::new(),
        },
        ResultPart::Allow => decision(channels.allow, "allow"),
        ResultPart::Ask => decision(channels.ask, "ask"),
        ResultPart::UpdatedInput => match channels.updated_input {
            Some(RewriteChannel::HookSpecificOutput) => {
                let mut writes = vec![own("hookSpecificOutput.updatedInput")];
                if let Some(decision) = &channels.rewrite_decision {
                    writes.push(unless_set("hookSpecificOutput.permissionDecision", decision));
                }
                writes
            }
            Some(RewriteChannel::CursorUpdatedInput) => vec![own("updated_input"), unless_set("permission", "allow")],
            Some(RewriteChannel::HookSpecificToolInput) => vec![own("hookSpecificOutput.tool_input")],
            Some(RewriteChannel::Args) => vec![own("args")],
            Some(RewriteChannel::ModifiedArgs) => {
                let mut writes = vec![own("modifiedArgs")];
                if let Some(decision) = &channels.rewrite_decision {
                    writes.push(unless_set("permissionDecision", decision));
                }
                writes
            }
            None => Vec::new(),
        },
    }
}

/// The value at a dotted path of an answer.
pub fn at<'v>(answer: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').try_fold(answer, |value, key| value.get(key))
}

/// Whether `answer` carries what `writes` set, and the part's own value if it has one (the first
/// field that takes it). Fields set only when absent are not required.
pub fn read(answer: &Value, writes: &[AnswerWrite]) -> Option<Option<Value>> {
    if writes.is_empty() {
        return None;
    }
    let mut own_value = None;
    for write in writes.iter().filter(|w| !w.if_absent) {
        let found = at(answer, write.path)?;
        match &write.value {
            Some(fixed) if fixed != found => return None,
            Some(_) => {}
            None => {
                own_value.get_or_insert_with(|| found.clone());
            }
        }
    }
    Some(own_value)
}

/// How the matrix names a channel: its first fixed field as `key: "value"`, else the path that takes
/// the part's value, with what is set only when absent after "with".
pub fn describe(writes: &[AnswerWrite]) -> String {
    let last = |path: &str| path.rsplit('.').next().unwrap_or(path).to_string();
    let main = writes
        .iter()
        .filter(|w| !w.if_absent)
        .find_map(|w| w.value.as_ref().map(|v| format!("`{}: {v}`", last(w.path))))
        .or_else(|| writes.iter().find(|w| w.value.is_none()).map(|w| format!("`{}`", w.path)))
        .unwrap_or_default();
    let extra: Vec<String> = writes
        .iter()
        .filter(|w| w.if_absent)
        .filter_map(|w| w.value.as_ref().map(|v| format!("`{}: {v}`", last(w.path))))
        .collect();
    if extra.is_empty() { main } else { format!("{main} with {}", extra.join(", ")) }
}
