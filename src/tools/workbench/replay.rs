//! Replaying captured traffic: a pasted envelope, or a file of them (one JSON object per line, or one
//! JSON array), each matched to the hooks its host would run for it — by the host that sent it (read
//! from the envelope's own shape), its event and the hook's matcher — exactly as the host matches.

use serde_json::Value;

use crate::artifact::IndexRow;
use crate::hosts;
use crate::tools::simulate::{SimulateError, admitted};
use crate::vocabulary::target::Target;

/// At most this many envelopes are replayed from one paste or file.
pub const MAX_ENVELOPES: usize = 200;

/// The envelopes of a pasted text or a dropped file: one per line (JSON Lines), or the whole text as
/// one object or an array of them. A line that is not a JSON object is kept as its error.
pub fn envelopes(text: &str) -> Vec<(usize, Result<Value, String>)> {
    let trimmed = text.trim();
    if let Ok(value) = serde_json::from_str::<Value>(trimmed) {
        let items = match value {
            Value::Array(items) => items,
            other => vec![other],
        };
        return items.into_iter().enumerate().map(|(i, v)| (i + 1, object(v))).take(MAX_ENVELOPES).collect();
    }
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            let parsed = serde_json::from_str::<Value>(line).map_err(|e| format!("line {} is not JSON: {e}", i + 1));
            (i + 1, parsed.and_then(object))
        })
        .take(MAX_ENVELOPES)
        .collect()
}

fn object(value: Value) -> Result<Value, String> {
    match value {
        Value::Object(_) => Ok(value),
        other => Err(format!("an envelope is a JSON object, not {}", crate::vocabulary::json::compact(&other))),
    }
}

/// Which hooks of the artifact an envelope reaches.
#[derive(Debug, Default)]
pub struct Matched<'r> {
    /// The hosts whose envelope this is (more than one when their envelopes look alike).
    pub hosts: Vec<Target>,
    /// The native event it is, on those hosts.
    pub native_event: Option<String>,
    /// Other events of those hosts the envelope also fits, less closely: a host that does not name
    /// the event in its envelope (Copilot) can send two events of one shape (an `agentStop` for a
    /// subagent reads like a `subagentStop`), and the page says so rather than pretend to know.
    pub also: Vec<String>,
    /// The hooks the host would run for it.
    pub runs: Vec<&'r IndexRow>,
    /// Hooks of that event the host would not run for it, each with why (their matcher).
    pub skipped: Vec<(&'r IndexRow, String)>,
}

/// How well an envelope fits a row's mapping on its host: `None` when it cannot be that host's
/// envelope of that event (another event name, a field the host always sends is missing), else the
/// number of its keys the host sends on that event less the number it never sends.
fn fit(row: &IndexRow, value: &Value) -> Option<i64> {
    let envelope = value.as_object()?;
    let table = hosts::table(row.host);
    let surface = table.hooks.as_ref()?;
    let mapping = table.mapping_for(row.event, row.hooks_module).ok()?;
    // A recorded in-process call fits its event by its shape, with every key known.
    if let Some((native, _)) = surface.recorded_call(value) {
        return (native == row.native_event).then_some(envelope.len() as i64);
    }
    if let Some(key) = surface.event_name_key.as_deref()
        && envelope.get(key).and_then(Value::as_str) != Some(row.native_event.as_str())
    {
        return None;
    }
    let mut known: Vec<&str> = surface.event_name_key.iter().map(String::as_str).collect();
    for field in surface.input_fields(mapping) {
        let names: Vec<&str> =
            std::iter::once(field.key.as_str()).chain(field.alternatives.iter().map(String::as_str)).collect();
        if field.required && field.simulate.is_none() && !names.iter().any(|name| envelope.contains_key(*name)) {
            return None;
        }
        known.extend(names);
    }
    let sent = envelope.keys().filter(|key| known.contains(&key.as_str())).count() as i64;
    Some(sent - (envelope.len() as i64 - sent))
}

/// Matches one envelope to the rows of an artifact. `only`: the host the user says sent it.
pub fn match_envelope<'r>(rows: &'r [IndexRow], envelope: &Value, only: Option<Target>) -> Matched<'r> {
    if !envelope.is_object() {
        return Matched::default();
    }
    let fits: Vec<(&IndexRow, i64)> = rows
        .iter()
        .filter(|row| only.is_none_or(|host| row.host == host))
        .filter_map(|row| fit(row, envelope).map(|score| (row, score)))
        .collect();
    let Some(best) = fits.iter().map(|(_, score)| *score).max() else { return Matched::default() };
    let mut matched = Matched::default();
    let best_hosts: Vec<Target> = fits.iter().filter(|(_, score)| *score == best).map(|(row, _)| row.host).collect();
    for (row, _) in fits.iter().filter(|(row, score)| *score < best && best_hosts.contains(&row.host)) {
        if !matched.also.contains(&row.native_event) {
            matched.also.push(row.native_event.clone());
        }
    }
    for (row, _) in fits.iter().filter(|(_, score)| *score == best) {
        if !matched.hosts.contains(&row.host) {
            matched.hosts.push(row.host);
        }
        matched.native_event.get_or_insert_with(|| row.native_event.clone());
        match admitted(row, envelope) {
            Ok(()) => matched.runs.push(row),
            Err(SimulateError::NotAdmitted(why) | SimulateError::BadInput(why)) => matched.skipped.push((row, why)),
            Err(other) => matched.skipped.push((row, other.to_string())),
        }
    }
    matched
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::canonical::CanonicalEvent;
    use crate::vocabulary::hook_event::HookEvent;

    /// A hook on every config event of every host, as an artifact's index would list it.
    fn every_row() -> Vec<IndexRow> {
        let mut rows = Vec::new();
        for target in Target::ALL.iter().filter(|t| hosts::table(**t).has_hooks()) {
            for event in CanonicalEvent::ALL {
                let Ok(mapping) = hosts::table(*target).event(event) else { continue };
                rows.push(IndexRow {
                    warm_server: false,
                    host: *target,
                    id: format!("{event}-hook"),
                    name: format!("{event}-hook"),
                    event: HookEvent::Config(event),
                    native_event: mapping.native.clone(),
                    matcher: None,
                    timeout: None,
                    effective_timeout: 60,
                    fail_closed: false,
                    path: String::new(),
                    prebuilt: false,
                    shared_runtime: None,
                    route_budget_ms: None,
                    hooks_module: false,
                    combined: None,
                });
            }
        }
        rows
    }

    /// Every envelope the real command-hook hosts sent (`testdata/envelopes/<host>/<Event>[.case].json`).
    fn recorded() -> Vec<(Target, String, String, Value)> {
        let base = camino::Utf8Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/envelopes");
        let folders = [
            ("claude-code", Target::Claude),
            ("codex", Target::Codex),
            ("copilot-cli", Target::Copilot),
            ("gemini-cli", Target::Gemini),
            ("factory-droid", Target::Droid),
            ("qwen-code", Target::Qwen),
            ("opencode", Target::Opencode),
            ("pi", Target::Pi),
            ("cline", Target::Cline),
        ];
        // OpenCode's recordings are named `hook.<native event>.<case>.json`, `event.<type>.json`.
        let opencode: Vec<String> = hosts::table(Target::Opencode)
            .hooks
            .as_ref()
            .unwrap()
            .events
            .values()
            .filter_map(|m| Some(m.supported().ok()?.native.clone()))
            .collect();
        let mut found = Vec::new();
        for (folder, target) in folders {
            let mut names: Vec<String> = std::fs::read_dir(base.join(folder))
                .unwrap()
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.ends_with(".json") && n.starts_with(|c: char| c.is_ascii_alphabetic()))
                .collect();
            names.sort();
            for name in names {
                let native = match target {
                    Target::Opencode => {
                        let rest = name.trim_start_matches("hook.").trim_start_matches("event.");
                        let known = opencode.iter().find(|n| rest.starts_with(&format!("{n}.")));
                        known.cloned().unwrap_or_else(|| rest.to_string())
                    }
                    _ => name.split('.').next().unwrap().to_string(),
                };
                let Ok(envelope) =
                    serde_json::from_str::<Value>(&std::fs::read_to_string(base.join(folder).join(&name)).unwrap())
                else {
                    continue;
                };
                // Cline's recordings are named after its hook files (`PreToolUse.<tool>.json`); their
                // payloads name the native event (`hookName`).
                let native = match (target, envelope["hookName"].as_str()) {
                    (Target::Cline, Some(hook)) => hook.to_string(),
                    _ => native,
                };
                found.push((target, native, name, envelope));
            }
        }
        found
    }

    #[test]
    fn every_recorded_envelope_is_matched_to_the_host_that_sent_it_and_its_event() {
        let rows = every_row();
        let (mut checked, mut ambiguous) = (0, Vec::new());
        for (target, native, file, envelope) in recorded() {
            if !rows.iter().any(|r| r.host == target && r.native_event == native) {
                continue; // an event no config hook takes, or not an envelope (SOURCES.json, effects.json)
            }
            let matched = match_envelope(&rows, &envelope, None);
            assert!(matched.hosts.contains(&target), "{target} {file}: matched {:?}", matched.hosts);
            // Exactly its event; or, where the host's envelope does not name it, at least offered.
            if matched.native_event.as_deref() != Some(native.as_str()) {
                assert!(hosts::table(target).hooks.as_ref().unwrap().event_name_key.is_none(), "{target} {file}");
                assert!(
                    matched.also.contains(&native),
                    "{target} {file}: {:?} {:?}",
                    matched.native_event,
                    matched.also
                );
                ambiguous.push(file);
                continue;
            }
            assert!(matched.runs.iter().all(|r| r.native_event == native), "{target} {file}");
            // Named by the user, the host is the only one.
            let only = match_envelope(&rows, &envelope, Some(target));
            assert_eq!(only.hosts, vec![target], "{target} {file}");
            checked += 1;
        }
        assert!(checked >= 40, "only {checked} recorded envelopes were matched exactly");
        let opencode = recorded()
            .iter()
            .filter(|(t, native, ..)| {
                *t == Target::Opencode && rows.iter().any(|r| r.host == *t && &r.native_event == native)
            })
            .count();
        assert!(opencode >= 14, "OpenCode's recorded tool calls and session events: {opencode}");
        // Pi's recordings are named `<event>[.<tool>][.<case>].json`: its events and tool calls.
        let pi = recorded()
            .iter()
            .filter(|(t, native, ..)| {
                *t == Target::Pi && rows.iter().any(|r| r.host == *t && &r.native_event == native)
            })
            .count();
        assert!(pi >= 11, "Pi's recorded tool calls and session events: {pi}");
        // Cline's: each hook file's payload, its tool calls and results and its task's start and end.
        let cline = recorded()
            .iter()
            .filter(|(t, native, ..)| {
                *t == Target::Cline && rows.iter().any(|r| r.host == *t && &r.native_event == native)
            })
            .count();
        assert!(cline >= 10, "Cline's recorded tool calls and task events: {cline}");
        assert!(ambiguous.len() <= 2, "too many envelopes matched only as an alternative: {ambiguous:?}");
    }

    #[test]
    fn a_file_is_one_envelope_per_line_or_one_json_value() {
        let lines = envelopes("{\"a\":1}\n\n{\"b\":2}\nnot json\n[1]\n");
        assert_eq!(lines.len(), 4);
        assert_eq!((lines[0].0, lines[1].0), (1, 3));
        assert!(lines[2].1.as_ref().unwrap_err().contains("line 4 is not JSON"));
        assert!(lines[3].1.as_ref().unwrap_err().contains("a JSON object"));
        let pasted = envelopes("{\n  \"a\": 1\n}\n");
        assert_eq!(pasted.len(), 1);
        assert!(pasted[0].1.is_ok());
        assert_eq!(envelopes("[{\"a\":1},{\"b\":2}]").len(), 2);
    }
}
