//! The envelope codec: a canonical input encoded into the host's native envelope (from the same
//! host table the wrapper bakes in), the host's event and matcher checks on it, and the wrapper's
//! native answer decoded back into the canonical result.

use serde::Serialize;
use serde_json::{Map, Value};

use super::SimulateError;
use crate::artifact::IndexRow;
use crate::hosts::{self, Decode, answer};
use crate::vocabulary::canonical::ResultPart;

/// A canonical input field a simulation could not hand the hook.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dropped {
    pub field: String,
    pub reason: String,
}

/// A canonical input encoded for one host: the envelope, and what of the input it leaves out or read
/// under another name.
#[derive(Debug)]
pub struct Encoded {
    pub envelope: Value,
    pub dropped: Vec<Dropped>,
    pub warnings: Vec<String>,
}

/// Refuses an envelope the host would never hand this hook: another event, or a tool its matcher
/// does not admit.
pub fn admitted(row: &IndexRow, envelope: &Value) -> Result<(), SimulateError> {
    let Value::Object(fields) = envelope else {
        return Err(SimulateError::BadInput(format!("a native envelope must be a JSON object, got {envelope}")));
    };
    let surface = hosts::table(row.host).hooks.as_ref().expect("indexed hosts have hooks");
    // A recorded in-process call (OpenCode's `{ input, output }`, an event object): its event and
    // tool by its shape, as the entry module will make its envelope.
    if let Some((native, tool)) = surface.recorded_call(envelope) {
        if native != row.native_event {
            return Err(SimulateError::NotAdmitted(format!(
                "{} runs `{}` on {}, and this recorded call is a {native}: the host would not run it for it",
                row.host, row.name, row.native_event
            )));
        }
        return match (&row.matcher, tool) {
            (Some(matcher), Some(tool)) => matcher_admits(row, matcher, tool, "tool"),
            _ => Ok(()),
        };
    }
    let name_key = surface.event_name_key.as_deref();
    if let Some(event) = name_key.and_then(|key| fields.get(key)).and_then(Value::as_str)
        && event != row.native_event
    {
        return Err(SimulateError::NotAdmitted(format!(
            "{} runs `{}` on {}, not on {event}: the host would not run it for this envelope",
            row.host, row.name, row.native_event
        )));
    }
    let Some(matcher) = &row.matcher else { return Ok(()) };
    let table = hosts::table(row.host);
    let surface = table.hooks.as_ref().expect("indexed hosts have hooks");
    let mapping =
        table.mapping_for(row.event, row.hooks_module).map_err(|reason| SimulateError::BadInput(reason.to_string()))?;
    // What the host's matcher compares: the session's source on sessionStart, else the tool name.
    let Some((key, what)) = surface.matcher_subject(mapping) else { return Ok(()) };
    let Some(value) = fields.get(key).and_then(Value::as_str) else { return Ok(()) };
    matcher_admits(row, matcher, value, what)
}

/// Whether `row`'s matcher admits `value` (the envelope's tool name or session source).
fn matcher_admits(row: &IndexRow, matcher: &str, value: &str, what: &str) -> Result<(), SimulateError> {
    let regex = regex::Regex::new(matcher).map_err(|e| SimulateError::BadInput(format!("matcher {matcher}: {e}")))?;
    if regex.is_match(value) {
        return Ok(());
    }
    Err(SimulateError::NotAdmitted(format!(
        "{}'s matcher {matcher} for `{}` does not admit the {what} `{value}`: the host would not run this hook for it",
        row.host, row.name
    )))
}

/// The native envelope for a canonical input, written as the host would write it.
pub fn encode(row: &IndexRow, input: &Value) -> Result<Value, SimulateError> {
    encode_noting(row, input).map(|encoded| encoded.envelope)
}

/// [`encode`], saying which fields of the input the hook will not get on this host, and why, and
/// which it read under their canonical name.
pub fn encode_noting(row: &IndexRow, input: &Value) -> Result<Encoded, SimulateError> {
    let Value::Object(given) = input else {
        return Err(SimulateError::BadInput(format!("--input must be a JSON object of canonical fields, got {input}")));
    };
    let mut input = given.clone();
    let mut warnings = Vec::new();
    for (old, canonical) in crate::vocabulary::canonical::PAYLOAD_ALIASES {
        let Some(value) = input.remove(*old) else { continue };
        if let Some(also) = input.get(*canonical)
            && also != &value
        {
            return Err(SimulateError::BadInput(format!(
                "`{old}` ({value}) and `{canonical}` ({also}) disagree: `{old}` is the old name of `{canonical}`; give `{canonical}` only"
            )));
        }
        warnings.push(format!(
            "`{old}` is the old name of `{canonical}` and was read as `{canonical}`; the old name goes in the next release"
        ));
        input.insert((*canonical).to_string(), value);
    }
    let input = &input;
    let table = hosts::table(row.host);
    let surface = table.hooks.as_ref().expect("indexed hosts have hooks");
    let mapping =
        table.mapping_for(row.event, row.hooks_module).map_err(|reason| SimulateError::BadInput(reason.to_string()))?;
    let name_key = surface.event_name_key.as_deref();
    let fields: Vec<_> = surface.input_fields(mapping).filter(|f| Some(f.key.as_str()) != name_key).collect();
    // A canonical field that some host sends on this event is fine on every host: where this host
    // does not send it, the handler simply does not get it. Only a field no host knows is a mistake.
    let known_anywhere = canonical_fields(row.event);
    if let Some(unknown) = input.keys().find(|k| !known_anywhere.contains(k.as_str()) && k.as_str() != "hookEventName")
    {
        let known: Vec<String> = known_anywhere.iter().map(|k| format!("`{k}`")).collect();
        let hint = crate::vocabulary::suggest::did_you_mean(unknown, known_anywhere.iter().map(String::as_str))
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        return Err(SimulateError::BadInput(format!(
            "`{unknown}` is not a canonical field of {} on any host{hint}; it takes {}",
            row.event,
            known.join(", ")
        )));
    }
    let mut envelope = Map::new();
    let mut missing = Vec::new();
    for field in &fields {
        let given = field.canonical.as_deref().and_then(|c| input.get(c));
        let value = match (given, field.decode) {
            (Some(Value::Bool(active)), Some(Decode::Positive)) => Value::from(u8::from(*active)),
            (Some(other), Some(Decode::Positive)) => {
                return Err(SimulateError::BadInput(format!(
                    "`{}` must be a boolean, got {other}",
                    field.canonical.as_deref().unwrap_or(&field.key)
                )));
            }
            (Some(value), Some(Decode::Json)) => Value::String(crate::vocabulary::json::compact(value)),
            (Some(value), _) => value.clone(),
            (None, _) => match &field.simulate {
                Some(default) => default.clone(),
                None => {
                    if field.required {
                        missing.push(field.canonical.clone().unwrap_or_else(|| field.key.clone()));
                    }
                    continue;
                }
            },
        };
        envelope.insert(field.key.clone(), value);
    }
    if !missing.is_empty() {
        let needed: Vec<String> =
            fields.iter().filter(|f| f.required && f.simulate.is_none()).filter_map(|f| f.canonical.clone()).collect();
        return Err(SimulateError::BadInput(format!(
            "a {} {} simulation needs {}; missing: {}",
            row.host,
            row.event,
            needed.join(", "),
            missing.join(", ")
        )));
    }
    if let Some(key) = name_key {
        envelope.insert(key.into(), Value::String(row.native_event.clone()));
    }
    let family = row.event.route();
    let dropped = input
        .keys()
        .filter(|key| key.as_str() != "hookEventName")
        .filter_map(|key| {
            let sent = fields.iter().any(|f| f.canonical.as_deref() == Some(key.as_str()));
            let reason = if !sent {
                format!(
                    "{} {} does not send it on {}: its envelope has no field for `{key}`, so the hook does not get it",
                    table.host, table.host_version, row.native_event
                )
            } else if let Some(family) = family.filter(|f| !f.payload.contains(&key.as_str())) {
                format!("it is not a payload field of the {} family; the route reads it from `native`", family.name)
            } else {
                return None;
            };
            Some(Dropped { field: key.clone(), reason })
        })
        .collect();
    // Keys sorted, as every JSON agent-bundle writes, whatever order the map keeps them in.
    Ok(Encoded { envelope: crate::vocabulary::json::sorted(&Value::Object(envelope)), dropped, warnings })
}

/// Every canonical payload key any host sends on `event`.
fn canonical_fields(event: crate::vocabulary::hook_event::HookEvent) -> std::collections::BTreeSet<String> {
    hosts::tables()
        .iter()
        .filter_map(|table| Some((table.hooks.as_ref()?, table.mapping(event).ok()?)))
        .flat_map(|(surface, mapping)| surface.input_fields(mapping).filter_map(|f| f.canonical.clone()))
        .collect()
}

/// The canonical result a host-native answer stands for (`null` for no answer): the answer read
/// back through the same field writes the wrapper's runtime made it with
/// ([`hosts::answer::writes`]).
pub fn decode_answer(row: &IndexRow, stdout: &str) -> Result<Value, String> {
    if stdout.trim().is_empty() {
        return Ok(Value::Null);
    }
    let answer: Value = serde_json::from_str(stdout).map_err(|e| format!("stdout is not JSON: {e}"))?;
    if !answer.is_object() {
        return Err("stdout is not a JSON object".into());
    }
    let table = hosts::table(row.host);
    let channels = &table.mapping_for(row.event, row.hooks_module).map_err(str::to_string)?.result;
    let read = |part: ResultPart| answer::read(&answer, &answer::writes(channels, part));
    let mut result = Map::new();
    if let Some(Some(context)) = read(ResultPart::AdditionalContext) {
        result.insert("additionalContext".into(), context);
    }
    let rewrite = read(ResultPart::UpdatedInput);
    if let Some(Some(updated)) = &rewrite {
        result.insert("updatedInput".into(), updated.clone());
    }
    // A decision the rewrite itself writes (the one a host needs to apply it) stands for `continue`,
    // since that is what the wrapper writes for a plain rewrite.
    let implied = |decision: &str| {
        rewrite.is_some()
            && answer::writes(channels, ResultPart::UpdatedInput)
                .iter()
                .any(|w| w.if_absent && w.value.as_ref().is_some_and(|v| v == decision))
    };
    if let Some(reason) = read(ResultPart::Deny) {
        result.insert("outcome".into(), "deny".into());
        result.insert("reason".into(), reason.unwrap_or(Value::Null));
    } else if read(ResultPart::Ask).is_some() && !implied("ask") {
        result.insert("outcome".into(), "ask".into());
    } else if read(ResultPart::Allow).is_some() && !implied("allow") {
        result.insert("outcome".into(), "allow".into());
    } else {
        result.insert("outcome".into(), "continue".into());
    }
    Ok(Value::Object(result))
}
