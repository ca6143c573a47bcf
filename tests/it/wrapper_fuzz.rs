//! Fuzzing the wrapper's two judges (issue 23): the envelope validator and the result checker, run by
//! the real runtime of a built artifact (`tests/support/fuzz.mjs` calls its exported `decide` many
//! times in one node process) on every host and event of `testdata/bundles/wrapper-matrix`.
//!
//! * Envelopes: valid envelopes with random mutations (a key removed, a value of another type, an
//!   alternative key, unknown keys, an own `__proto__` key, another event's name, broken text), some
//!   with `Object.prototype` polluted beforehand. The expected verdict is computed here from the host
//!   table (field types, required keys, the event name): the runtime must accept exactly the valid
//!   ones (the handler runs, exit 0) and refuse the rest (exit 1, or 2 when fail-closed, one stderr
//!   line, nothing on stdout, the handler never called).
//! * Results: a random result as plain data, returned as is and through a hostile form (a polluted
//!   `Object.prototype` by a naive merge, a prototype of its own, a Proxy, getters, non-enumerable or
//!   symbol keys, functions and class instances nested in a rewrite, a frozen or null-prototype copy,
//!   a promise or a thenable). Each hostile form either means exactly the plain result (the same exit,
//!   stdout and stderr) or fails the hook. The plain result's own answer is checked against what the
//!   host table says of each part: a legal result is delivered (decoded back, each delivered part as
//!   given), dropped with a note, or blocked; an illegal one fails; a denial never becomes an allow.
//!
//! `cargo test` runs a fixed set of seeds. For longer runs:
//!
//!   AGENT_BUNDLE_FUZZ_SECONDS=600 cargo test --test it wrapper_fuzz:: -- --nocapture
//!
//! runs fresh seeds until the time is up; both modes print how many cases ran and how many broke an
//! invariant. `AGENT_BUNDLE_FUZZ_SEED=<n>` replays one case of each kind. A failure names its seed.

use crate::common;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use agent_bundle::artifact::{IndexRow, read_verified};
use agent_bundle::hosts::{self, FieldKind, PartSupport};
use agent_bundle::io::RealDisk;
use agent_bundle::tools::simulate::decode_answer;
use agent_bundle::vocabulary::canonical::ResultPart;
use camino::{Utf8Path, Utf8PathBuf};
use common::Random;
use serde_json::{Map, Value, json};

/// Cases of each kind per batch (one node process each).
const BATCH: u64 = 1500;

struct Fuzz {
    artifact: Utf8PathBuf,
    rows: Vec<IndexRow>,
}

/// What one decision gave.
#[derive(Debug, PartialEq)]
struct Decided {
    code: Option<i64>,
    stderr: Vec<String>,
    stdout: Option<String>,
    thrown: Option<String>,
}

fn decided(value: &Value) -> Decided {
    Decided {
        code: value["code"].as_i64(),
        stderr: value["stderr"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|l| l.as_str().unwrap_or("").to_string())
            .collect(),
        stdout: value["stdout"].as_str().map(str::to_string),
        thrown: value["thrown"].as_str().map(str::to_string),
    }
}

/// A broken invariant: its kind (for the counts) and the case that showed it.
struct Finding {
    kind: String,
    detail: String,
}

fn fail_code(row: &IndexRow) -> i64 {
    if row.fail_closed { 2 } else { 1 }
}

/// A failure as every wrapper must fail: its failure exit, one error line, nothing on stdout.
fn is_failure(row: &IndexRow, run: &Decided) -> bool {
    run.thrown.is_none()
        && run.code == Some(fail_code(row))
        && run.stdout.is_none()
        && run.stderr.len() == 1
        && run.stderr[0].starts_with("Agent Bundle hook error: ")
}

// ---------------------------------------------------------------------------------------------
// Envelopes

/// Values a mutation puts into a field.
fn any_value(random: &mut Random, native: &str) -> Value {
    match random.below(16) {
        0 => json!("x"),
        1 => json!(""),
        2 => json!(0),
        3 => json!(1),
        4 => json!(-2.5),
        5 => json!(true),
        6 => json!(false),
        7 => Value::Null,
        8 => json!([]),
        9 => json!(["a"]),
        10 => json!(["a", 1]),
        11 => json!({}),
        12 => json!({ "command": "ls" }),
        13 => json!(native),
        14 => json!("{\"a\":1}"),
        _ => json!("{"),
    }
}

/// Whether the runtime must accept `envelope` on `row`, from the host table: the event's name, then
/// every field's presence and type (its first present key among the alternatives).
fn envelope_valid(row: &IndexRow, envelope: &Value) -> bool {
    let Value::Object(fields) = envelope else { return false };
    let table = hosts::table(row.host);
    let surface = table.hooks.as_ref().unwrap();
    let mapping = table.mapping(row.event).unwrap();
    let name_key = surface.event_name_key.as_deref();
    if let Some(key) = name_key
        && fields.get(key) != Some(&Value::String(row.native_event.clone()))
    {
        return false;
    }
    for field in surface.input_fields(mapping) {
        let keys = std::iter::once(&field.key).chain(&field.alternatives);
        let Some(value) = keys.filter_map(|key| fields.get(key)).next() else {
            if field.required {
                return false;
            }
            continue;
        };
        let typed = match field.kind {
            FieldKind::String => value.is_string(),
            FieldKind::NullableString => value.is_string() || value.is_null(),
            FieldKind::Boolean => value.is_boolean(),
            FieldKind::Number => value.is_number(),
            FieldKind::Object => value.is_object(),
            FieldKind::StringArray => value
                .as_array()
                .is_some_and(|items| items.iter().all(Value::is_string) && !(field.non_empty && items.is_empty())),
            FieldKind::Enum => value.as_str().is_some_and(|v| field.values.iter().any(|allowed| allowed == v)),
            FieldKind::Any => true,
        };
        if !typed {
            return false;
        }
        if field.decode == Some(hosts::Decode::Json)
            && serde_json::from_str::<Value>(value.as_str().unwrap_or("")).is_err()
        {
            return false;
        }
    }
    true
}

struct EnvelopeCase {
    row: usize,
    stdin: Vec<u8>,
    pollute: Map<String, Value>,
    /// None: broken text, never valid.
    envelope: Option<Value>,
    log: Vec<String>,
}

fn envelope_case(fuzz: &Fuzz, seed: u64) -> EnvelopeCase {
    let mut random = Random::seeded(seed);
    let index = random.below(fuzz.rows.len());
    let row = &fuzz.rows[index];
    let table = hosts::table(row.host);
    let surface = table.hooks.as_ref().unwrap();
    let mapping = table.mapping(row.event).unwrap();
    let mut envelope = common::envelope_with(row, json!({}));
    let fields: Vec<_> = surface.input_fields(mapping).collect();
    let mut log = Vec::new();
    let mut removed = Vec::new();
    for _ in 0..=random.below(3) {
        let object = envelope.as_object_mut().unwrap();
        let keys: Vec<String> = object.keys().cloned().collect();
        match random.below(8) {
            0 | 1 if !keys.is_empty() => {
                let key = &keys[random.below(keys.len())];
                object.remove(key);
                log.push(format!("removed {key}"));
                removed.push(key.clone());
            }
            2 | 3 if !keys.is_empty() => {
                let key = &keys[random.below(keys.len())];
                let value = match fields.iter().find(|f| &f.key == key) {
                    Some(field) if field.kind == FieldKind::Enum && random.chance(50) => {
                        json!(field.values[random.below(field.values.len())])
                    }
                    _ => any_value(&mut random, &row.native_event),
                };
                log.push(format!("{key} = {value}"));
                object.insert(key.clone(), value);
            }
            4 => {
                if let Some(field) = fields.iter().find(|f| !f.alternatives.is_empty() && object.contains_key(&f.key)) {
                    let value = object.remove(&field.key).unwrap();
                    let alternative = &field.alternatives[random.below(field.alternatives.len())];
                    log.push(format!("{} moved to {alternative}", field.key));
                    object.insert(alternative.clone(), value);
                }
            }
            5 => {
                let value = any_value(&mut random, &row.native_event);
                log.push(format!("extra = {value}"));
                object.insert("extra".into(), value);
            }
            6 => {
                let mut inner = Map::new();
                if let Some(key) = &surface.event_name_key {
                    inner.insert(key.clone(), json!(row.native_event));
                }
                inner.insert("outcome".into(), json!("allow"));
                log.push("own __proto__ key".into());
                object.insert("__proto__".into(), Value::Object(inner));
            }
            _ => {
                if let Some(key) = &surface.event_name_key {
                    let other = if row.native_event == "Stop" { "PreToolUse" } else { "Stop" };
                    log.push(format!("{key} = {other}"));
                    object.insert(key.clone(), json!(other));
                }
            }
        }
    }
    let mut pollute = Map::new();
    if random.chance(40) {
        // Values that would make the envelope valid if the validator read through the prototype.
        let mut candidates: Vec<(String, Value)> = removed
            .iter()
            .filter_map(|key| {
                let field = fields.iter().find(|f| &f.key == key)?;
                let value = common::envelope_with(row, json!({}))[key].clone();
                (!value.is_null() || field.kind == FieldKind::NullableString).then(|| (key.clone(), value))
            })
            .collect();
        if let Some(key) = &surface.event_name_key {
            candidates.push((key.clone(), json!(row.native_event)));
        }
        if let Some(key) = &mapping.pass_when_present {
            candidates.push((key.clone(), json!("agent-1")));
        }
        for (key, value) in candidates {
            if random.chance(70) {
                log.push(format!("Object.prototype.{key} = {value}"));
                pollute.insert(key, value);
            }
        }
    }
    let text = envelope.to_string().into_bytes();
    let (stdin, envelope) = match random.below(40) {
        0 => (text[..text.len() / 2].to_vec(), None),
        1 => ([&text[..], b" x"].concat(), None),
        2 => ([b"[", &text[..], b"]"].concat(), None),
        3 => ([&text[..], b" ", &text[..]].concat(), None),
        4 => ([&[0xff][..], &text[..]].concat(), None),
        5 => (b"  ".to_vec(), None),
        _ => (text, Some(envelope)),
    };
    if envelope.is_none() {
        log.push("broken text".into());
    }
    EnvelopeCase { row: index, stdin, pollute, envelope, log }
}

fn check_envelope(fuzz: &Fuzz, seed: u64, case: &EnvelopeCase, result: &Value) -> Option<Finding> {
    let row = &fuzz.rows[case.row];
    let run = decided(result);
    let called = result["called"].as_bool() == Some(true);
    let valid = case.envelope.as_ref().is_some_and(|e| envelope_valid(row, e));
    let passes = case.envelope.as_ref().and_then(|e| {
        let mapping = hosts::table(row.host).mapping(row.event).ok()?;
        mapping.pass_when_present.as_ref().map(|key| e.get(key).is_some())
    }) == Some(true);
    let kind = if run.thrown.is_some() {
        Some("decide threw")
    } else if valid {
        let ok = run.code == Some(0) && run.stdout.is_none() && run.stderr.is_empty() && called != passes;
        (!ok).then_some("a valid envelope was refused")
    } else if called || run.code == Some(0) {
        Some("an invalid envelope was accepted")
    } else {
        (!is_failure(row, &run)).then_some("an envelope's refusal is not one failure")
    }?;
    let polluted = if case.pollute.is_empty() { "" } else { " (Object.prototype polluted)" };
    Some(Finding {
        kind: format!("envelope: {kind}{polluted}"),
        detail: format!(
            "envelope seed {seed} on {} ({}): {}; stdin {}; got {run:?}",
            row.path,
            if valid { "valid" } else { "invalid" },
            case.log.join(", "),
            String::from_utf8_lossy(&case.stdin)
        ),
    })
}

// ---------------------------------------------------------------------------------------------
// Results

/// A random result as plain data (`None`: the handler returns nothing).
fn base_result(random: &mut Random) -> Option<Value> {
    match random.below(40) {
        0 => return None,
        1 => return Some(Value::Null),
        2 => return Some(json!([])),
        3 => return Some(json!("deny")),
        4 => return Some(json!(7)),
        _ => {}
    }
    let mut result = Map::new();
    if random.chance(75) {
        let outcome = match random.below(20) {
            0 => json!("stop"),
            1 => json!("approve"),
            2 => json!(5),
            3..=5 => json!("continue"),
            6..=8 => json!("allow"),
            9 | 10 => json!("ask"),
            _ => json!("deny"),
        };
        result.insert("outcome".into(), outcome);
    }
    let denies = result.get("outcome") == Some(&json!("deny"));
    if (denies && random.chance(90)) || random.chance(8) {
        let reason = match random.below(12) {
            0 => json!(""),
            1 => json!("   "),
            2 => json!(7),
            _ => json!("not allowed here"),
        };
        result.insert("reason".into(), reason);
    }
    if random.chance(40) {
        let context = match random.below(12) {
            0 => json!(42),
            1 => json!(""),
            _ => json!("extra context"),
        };
        result.insert("additionalContext".into(), context);
    }
    if random.chance(if denies { 5 } else { 30 }) {
        let rewrite = match random.below(12) {
            0 => json!("echo rewritten"),
            1 => json!(["echo", "rewritten"]),
            2 => json!({ "command": "echo rewritten", "nested": { "list": [1, "two", null, true] } }),
            _ => json!({ "command": "echo rewritten" }),
        };
        result.insert("updatedInput".into(), rewrite);
    }
    if random.chance(3) {
        result.insert("decision".into(), json!("block"));
    }
    Some(Value::Object(result))
}

/// What the host table says the wrapper must do with a plain result on `row`.
#[derive(Debug)]
enum Expected {
    Fail,
    Blocked(i32),
    /// The canonical result the answer decodes to (`null`: no answer).
    Answer(Value),
}

const RESULT_KEYS: &[&str] = &["outcome", "reason", "additionalContext", "updatedInput"];

fn expected(row: &IndexRow, envelope: &Value, result: Option<&Value>) -> Expected {
    let object = match result {
        None | Some(Value::Null) => return Expected::Answer(Value::Null),
        Some(Value::Object(object)) => object,
        Some(_) => return Expected::Fail,
    };
    if object.keys().any(|k| !RESULT_KEYS.contains(&k.as_str())) {
        return Expected::Fail;
    }
    let outcome = object.get("outcome").cloned().unwrap_or(json!("continue"));
    let Some(outcome) = outcome.as_str().filter(|o| ["continue", "allow", "ask", "deny"].contains(o)) else {
        return Expected::Fail;
    };
    let reason = object.get("reason");
    let context = object.get("additionalContext");
    let rewrite = object.get("updatedInput");
    let table = hosts::table(row.host);
    let support = |part: ResultPart| table.result_part(row.event, part);
    let refused = |part: ResultPart| matches!(support(part), PartSupport::Refuse(_));
    let outcome_part = match outcome {
        "allow" => Some(ResultPart::Allow),
        "ask" => Some(ResultPart::Ask),
        "deny" => Some(ResultPart::Deny),
        _ => None,
    };
    if reason.is_some_and(|r| !r.is_string()) || outcome_part.is_some_and(refused) {
        return Expected::Fail;
    }
    if outcome == "deny" {
        if reason.and_then(Value::as_str).is_none_or(|r| r.trim().is_empty()) {
            return Expected::Fail;
        }
        let mapping = table.mapping(row.event).unwrap();
        if let Some(when) = &mapping.result.deny_when
            && envelope.get(&when.key) != Some(&when.equals)
        {
            return Expected::Fail;
        }
    } else if reason.is_some() {
        return Expected::Fail;
    }
    if context.is_some_and(|c| !c.is_string() || refused(ResultPart::AdditionalContext)) {
        return Expected::Fail;
    }
    if rewrite.is_some_and(|r| !r.is_object() || refused(ResultPart::UpdatedInput) || outcome == "deny") {
        return Expected::Fail;
    }
    let guards =
        outcome_part.filter(|p| *p != ResultPart::Allow).into_iter().chain(rewrite.map(|_| ResultPart::UpdatedInput));
    for part in guards {
        if let PartSupport::Block { exit, .. } = support(part) {
            return Expected::Blocked(exit);
        }
    }
    let delivered = |part: ResultPart| matches!(support(part), PartSupport::Deliver);
    let mut answer = Map::new();
    if let Some(context) = context.filter(|_| delivered(ResultPart::AdditionalContext)) {
        answer.insert("additionalContext".into(), context.clone());
    }
    if let Some(rewrite) = rewrite {
        answer.insert("updatedInput".into(), rewrite.clone());
    }
    // A rewrite that carries the decision the host needs to apply it reads back as a plain rewrite.
    let channels = &table.mapping(row.event).unwrap().result;
    let implied = |part: ResultPart| {
        rewrite.is_some()
            && hosts::answer::writes(channels, ResultPart::UpdatedInput)
                .iter()
                .any(|w| w.if_absent && w.value.as_ref().is_some_and(|v| v == part.name()))
    };
    match outcome_part {
        Some(ResultPart::Deny) => {
            answer.insert("outcome".into(), json!("deny"));
            answer.insert("reason".into(), reason.unwrap().clone());
        }
        Some(part) if delivered(part) && !implied(part) => {
            answer.insert("outcome".into(), json!(part.name()));
        }
        _ => {
            answer.insert("outcome".into(), json!("continue"));
        }
    }
    if answer.len() == 1 && answer["outcome"] == "continue" {
        return Expected::Answer(Value::Null);
    }
    Expected::Answer(Value::Object(answer))
}

/// Hostile forms of a result: the handler's body (with `result` holding the plain data) and whether
/// it must mean the plain result (else it must fail the hook).
fn hostile_form(random: &mut Random, base: Option<&Value>) -> (String, &'static str, bool) {
    const KEYS: &[&str] = &[
        "outcome",
        "reason",
        "additionalContext",
        "updatedInput",
        "write",
        "drop",
        "refuse",
        "block",
        "exit",
        "failClosed",
        "path",
        "value",
        "ifAbsent",
        "denyWhen",
        "eventNamed",
        "hook",
        "parts",
    ];
    const VALUES: &[&str] = &[
        "\"allow\"",
        "\"deny\"",
        "\"ask\"",
        "true",
        "0",
        "{\"exit\":0}",
        "[{\"path\":\"hookSpecificOutput.permissionDecision\",\"value\":\"allow\"}]",
        "\"hookSpecificOutput.permissionDecision\"",
        "{\"command\":\"rm -rf /\"}",
    ];
    // The issue's own case, a polluted `outcome: "allow"`, a third of the time.
    let (key, data) =
        if random.chance(33) { ("outcome", "\"allow\"") } else { (random.pick(KEYS), random.pick(VALUES)) };
    let value = format!("({data})");
    let object = matches!(base, Some(Value::Object(_)));
    let rewrite = base.and_then(|b| b.get("updatedInput")).is_some_and(Value::is_object);
    let choice = random.below(18);
    let (body, name, same) = match choice {
        0 => {
            let text = serde_json::to_string(&format!("{{\"__proto__\":{{\"{key}\":{data}}}}}")).unwrap();
            (format!("helpers.naiveMerge({{}}, JSON.parse({text})); return result;"), "Object.prototype polluted by a merge", true)
        }
        1 => (format!("Object.prototype[{key:?}] = {value}; return result;"), "Object.prototype polluted", true),
        2 if object => (
            format!("return Object.setPrototypeOf(result, {{ {key:?}: {value} }});"),
            "a prototype of its own",
            false,
        ),
        3 if object => (
            format!("return new Proxy(result, {{ get: (t, k) => (k === {key:?} ? {value} : t[k]) }});"),
            "a lying Proxy",
            false,
        ),
        4 if object => ("return new Proxy(result, {});".into(), "a Proxy", false),
        5 if object => (
            format!("Object.defineProperty(result, {key:?}, {{ value: {value}, enumerable: false }}); return result;"),
            "a non-enumerable key",
            false,
        ),
        6 if object => (
            format!("Object.defineProperty(result, {key:?}, {{ get: () => {value}, enumerable: true }}); return result;"),
            "a getter",
            false,
        ),
        7 if object => (
            "for (const k of Object.keys(result)) { const v = result[k]; let n = 0; Object.defineProperty(result, k, { get: () => (n++ === 0 ? v : 'allow'), enumerable: true }); } return result;".into(),
            "getters that change their answer",
            base.unwrap().as_object().unwrap().is_empty(),
        ),
        8 if object => (format!("result[Symbol({key:?})] = {value}; return result;"), "a symbol key", true),
        9 if object => ("return Object.freeze(result);".into(), "frozen", true),
        10 if object => ("return Object.assign(Object.create(null), result);".into(), "a null prototype", true),
        11 => ("return Promise.resolve(result);".into(), "a promise", true),
        12 => ("return { then(resolve) { resolve(result); } };".into(), "a thenable", true),
        13 if rewrite => (
            "result.updatedInput.toJSON = () => ({ command: 'rm -rf /' }); return result;".into(),
            "a function in the rewrite",
            false,
        ),
        14 if rewrite => (
            "result.updatedInput = new Proxy(result.updatedInput, {}); return result;".into(),
            "a Proxy rewrite",
            false,
        ),
        15 if rewrite => (
            "Object.setPrototypeOf(result.updatedInput, { command: 'rm -rf /' }); delete result.updatedInput.command; return result;".into(),
            "a rewrite with a prototype",
            false,
        ),
        16 if rewrite => ("result.updatedInput.when = new Date(0); return result;".into(), "a Date in the rewrite", false),
        17 if object => (
            "return Object.assign(new (class Result {})(), result);".into(),
            "a class instance",
            false,
        ),
        _ => ("return result;".into(), "plain", true),
    };
    (body, name, same)
}

struct ResultCase {
    row: usize,
    stdin: Vec<u8>,
    envelope: Value,
    base: Option<Value>,
    hostile: String,
    plain: String,
    form: &'static str,
    same: bool,
}

fn result_case(fuzz: &Fuzz, seed: u64) -> ResultCase {
    let mut random = Random::seeded(seed);
    let index = random.below(fuzz.rows.len());
    let row = &fuzz.rows[index];
    let envelope = common::envelope_with(row, json!({}));
    let base = base_result(&mut random);
    let literal = match &base {
        None => "undefined".to_string(),
        Some(value) => value.to_string(),
    };
    let (body, form, same) = hostile_form(&mut random, base.as_ref());
    ResultCase {
        row: index,
        stdin: envelope.to_string().into_bytes(),
        envelope,
        hostile: format!("const result = {literal};\n{body}"),
        plain: format!("return {literal};"),
        base,
        form,
        same,
    }
}

fn check_result(fuzz: &Fuzz, seed: u64, case: &ResultCase, result: &Value) -> Vec<Finding> {
    let row = &fuzz.rows[case.row];
    let hostile = decided(&result["hostile"]);
    let plain = decided(&result["plain"]);
    let mut found = Vec::new();
    let detail = || {
        format!(
            "result seed {seed} on {} ({}): {}\n  plain {plain:?}\n  hostile {hostile:?}",
            row.path,
            case.form,
            case.hostile.replace('\n', " ")
        )
    };
    let mut report = |kind: String| found.push(Finding { kind, detail: detail() });
    // The plain result against the host table.
    match expected(row, &case.envelope, case.base.as_ref()) {
        _ if plain.thrown.is_some() => report("result: decide threw".into()),
        Expected::Fail => {
            if !is_failure(row, &plain) {
                report("result: an illegal result was not one failure".into());
            }
        }
        Expected::Blocked(exit) => {
            let blocked = plain.code == Some(i64::from(exit))
                && plain.stdout.is_none()
                && plain.stderr.len() == 1
                && plain.stderr[0].starts_with("Agent Bundle hook blocked: ");
            if !blocked {
                report("result: a guard part the host cannot carry was not blocked".into());
            }
        }
        Expected::Answer(want) => {
            let notes_ok =
                plain.stderr.len() <= 1 && plain.stderr.iter().all(|l| l.starts_with("Agent Bundle hook note: "));
            let got = plain.stdout.as_deref().map(|s| decode_answer(row, s));
            let answer_ok = match (&got, &want) {
                (None, Value::Null) => true,
                (Some(Ok(decoded)), want) => decoded == want,
                _ => false,
            };
            if plain.code != Some(0) || !notes_ok || !answer_ok {
                report(format!("result: a legal result was not answered as the table says (wanted {want})"));
            }
        }
    }
    // The hostile form: the plain result's meaning exactly, or a failure.
    let outcome = |run: &Decided| {
        let answer = run.stdout.as_deref().map(|s| decode_answer(row, s));
        answer.and_then(Result::ok).and_then(|a| a["outcome"].as_str().map(str::to_string))
    };
    let allowed = outcome(&hostile).as_deref() == Some("allow") && outcome(&plain).as_deref() != Some("allow");
    let lost = outcome(&plain).as_deref() == Some("deny") && outcome(&hostile).as_deref() != Some("deny");
    let worst = if allowed {
        " and fabricated an allow"
    } else if lost {
        " and lost a denial"
    } else {
        ""
    };
    if case.same {
        if hostile != plain {
            report(format!("result: {} changed the answer{worst}", case.form));
        }
    } else if !is_failure(row, &hostile) {
        report(format!("result: {} was not refused{worst}", case.form));
    }
    found
}

// ---------------------------------------------------------------------------------------------

fn run_batch(fuzz: &Fuzz, seeds: std::ops::Range<u64>, findings: &mut Vec<Finding>) -> (u64, u64) {
    let envelopes: Vec<EnvelopeCase> = seeds.clone().map(|seed| envelope_case(fuzz, seed)).collect();
    let results: Vec<ResultCase> = seeds.clone().map(|seed| result_case(fuzz, seed)).collect();
    let mut cases: Vec<Value> = envelopes
        .iter()
        .map(
            |c| json!({ "kind": "envelope", "wrapper": fuzz.rows[c.row].path, "stdin": c.stdin, "pollute": c.pollute }),
        )
        .collect();
    cases.extend(results.iter().map(|c| {
        json!({ "kind": "result", "wrapper": fuzz.rows[c.row].path, "stdin": c.stdin, "hostile": c.hostile, "plain": c.plain })
    }));
    let outputs = run_harness(&fuzz.artifact, &cases);
    let (envelope_outputs, result_outputs) = outputs.split_at(envelopes.len());
    for ((seed, case), output) in seeds.clone().zip(&envelopes).zip(envelope_outputs) {
        findings.extend(check_envelope(fuzz, seed, case, output));
    }
    for ((seed, case), output) in seeds.zip(&results).zip(result_outputs) {
        findings.extend(check_result(fuzz, seed, case, output));
    }
    (envelopes.len() as u64, results.len() as u64)
}

fn run_harness(artifact: &Utf8Path, cases: &[Value]) -> Vec<Value> {
    common::node_harness("fuzz.mjs", artifact, &common::sandbox_dir("fuzz"), cases)
}

#[test]
fn the_envelope_validator_and_the_result_checker_hold_on_generated_inputs() {
    common::require_node();
    let (_guard, artifact) = common::build_bundle("wrapper-matrix");
    let rows = read_verified(&artifact, &RealDisk).unwrap().hooks;
    let fuzz = Fuzz { artifact, rows };
    let mut findings = Vec::new();
    let (mut envelopes, mut results) = (0, 0);
    let mut tally = |(e, r): (u64, u64)| {
        envelopes += e;
        results += r;
    };
    if let Ok(seed) = std::env::var("AGENT_BUNDLE_FUZZ_SEED") {
        let seed: u64 = seed.parse().expect("AGENT_BUNDLE_FUZZ_SEED is a number");
        tally(run_batch(&fuzz, seed..seed + 1, &mut findings));
    } else {
        let seconds: u64 = std::env::var("AGENT_BUNDLE_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
        if seconds == 0 {
            tally(run_batch(&fuzz, 1..BATCH + 1, &mut findings));
        } else {
            let started = std::time::Instant::now();
            let mut base = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() << 20;
            while started.elapsed().as_secs() < seconds {
                tally(run_batch(&fuzz, base..base + BATCH, &mut findings));
                base += BATCH;
            }
        }
    }
    let mut kinds: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
    for finding in &findings {
        let entry = kinds.entry(&finding.kind).or_insert((0, &finding.detail));
        entry.0 += 1;
    }
    let mut summary = format!(
        "{envelopes} envelopes and {results} results (each as plain data and in a hostile form) judged; {} broke an invariant\n",
        findings.len()
    );
    for (kind, (count, example)) in &kinds {
        let _ = writeln!(summary, "  {count} × {kind}\n    e.g. {example}");
    }
    println!("{summary}");
    assert!(findings.is_empty(), "{summary}");
}

/// Nothing a handler writes reaches the answer, through any door to stdout (console, process.stdout,
/// node:fs on fd 1 and by path, children of every stdio form, workers of code and of files), in each
/// form a wrapper runs in: its host's command (the POSIX handover where the host's document has a
/// POSIX-only command, no handover in an exec form or a command every shell parses) and node on the
/// wrapper with nothing handed over (every Windows form). Each run answers exactly as the same result
/// without the writes: no handler write in the answer, no lost denial, no fabricated allow. Consecutive
/// seeds cover every door; `AGENT_BUNDLE_FUZZ_SECONDS` runs more.
#[test]
fn no_door_to_stdout_reaches_the_answer_in_any_form() {
    use common::doors::{DOORS, LEAK, PLAN, SHAPE, plan, unhurried_matrix};
    common::require_node();
    let (_guard, artifact) = unhurried_matrix();
    let rows: Vec<IndexRow> = read_verified(&artifact, &RealDisk)
        .unwrap()
        .hooks
        .into_iter()
        .filter(|row| !hosts::table(row.host).hooks.as_ref().unwrap().in_process() && !row.hooks_module)
        .collect();
    let seconds: u64 = std::env::var("AGENT_BUNDLE_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    let started = std::time::Instant::now();
    let mut failures = Vec::new();
    let mut seed = 0u64;
    let mut handed_over = 0;
    while seed < DOORS.len() as u64 + 5 || started.elapsed().as_secs() < seconds {
        let mut random = Random::seeded(seed ^ 0xd005);
        let row = &rows[random.below(rows.len())];
        let stdin = common::envelope_with(row, json!({})).to_string();
        let (writes, plain) = plan(seed);
        let run = |plan: &Value| {
            let env = [("AGENT_BUNDLE_TEST_SHAPE", SHAPE), (PLAN, &plan.to_string())];
            common::run_wrapper(&artifact, &row.path, stdin.as_bytes(), &env)
        };
        let expected = run(&plain);
        let host_form = run(&writes);
        let bare = bare_node(&artifact, &row.path, stdin.as_bytes(), &writes);
        if hosts::table(row.host).hooks.as_ref().unwrap().command_shell != hosts::CommandShell::InProcess
            && matches!(hosts::table(row.host).hooks.as_ref().unwrap().windows.form, hosts::WindowsForm::OwnKey { .. })
        {
            handed_over += 1;
        }
        for (form, got) in [("the host's command", &host_form), ("node with nothing handed over", &bare)] {
            if got.stdout.contains(LEAK) || (got.code, &got.stdout) != (expected.code, &expected.stdout) {
                failures.push(format!(
                    "seed {seed}, {} through {form}, plan {writes}: exit {:?} stdout {:?}, where the result alone gives exit {:?} stdout {:?}",
                    row.path, got.code, got.stdout, expected.code, expected.stdout
                ));
            }
        }
        seed += 1;
    }
    println!(
        "{seed} generated handlers, each in both forms ({handed_over} with a POSIX handover in its host's command); {} broke the rule",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `node <wrapper>` with `stdin` and the plan: a wrapper run with nothing handed over, as every Windows
/// form runs it.
fn bare_node(artifact: &Utf8Path, wrapper: &str, stdin: &[u8], plan: &Value) -> common::Run {
    use std::io::Write;
    let _slot = common::node_slot();
    let mut child = std::process::Command::new("node")
        .arg(artifact.join(wrapper))
        .env("AGENT_BUNDLE_TEST_SHAPE", common::doors::SHAPE)
        .env(common::doors::PLAN, plan.to_string())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let output = child.wait_with_output().unwrap();
    common::Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}
