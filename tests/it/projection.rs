//! One projection for routes and config hooks (D13): every result shape a config handler and a
//! route can both express, rendered through a route of each family and, where the family has a
//! config-event twin, through a config hook of that event, on every host that has both. The two
//! must give the same stdout, the same class of stderr (nothing, a note, a blocking line, an error)
//! and the same exit code; where the page's rules for the event and the family differ on a part of
//! the shape, each side must follow its own rule. Run by the real node, through the artifacts' own
//! runtime.

use crate::common;

use agent_bundle::artifact::{IndexRow, read_verified};
use agent_bundle::hosts::{self, PartSupport};
use agent_bundle::io::RealDisk;
use agent_bundle::vocabulary::canonical::{CanonicalEvent, ResultPart};
use agent_bundle::vocabulary::family::Family;
use agent_bundle::vocabulary::hook_event::HookEvent;
use common::{Case, Run, build_bundle, decide_all, require_node};
use serde_json::Value;

/// Shapes both `testdata/bundles/wrapper-matrix/src/hooks/shape.ts` and
/// `testdata/bundles/route-matrix/src/events/_shape.tsx` render, with the parts each holds.
const SHAPES: &[(&str, &[ResultPart])] = &[
    ("nothing", &[]),
    ("continue", &[]),
    ("context", &[ResultPart::AdditionalContext]),
    ("continue + context", &[ResultPart::AdditionalContext]),
    ("deny", &[ResultPart::Deny]),
    ("deny + context", &[ResultPart::Deny, ResultPart::AdditionalContext]),
    ("allow", &[ResultPart::Allow]),
    ("allow + context", &[ResultPart::Allow, ResultPart::AdditionalContext]),
    ("ask", &[ResultPart::Ask]),
    ("rewrite", &[ResultPart::UpdatedInput]),
    ("rewrite + context", &[ResultPart::UpdatedInput, ResultPart::AdditionalContext]),
    ("allow + rewrite", &[ResultPart::Allow, ResultPart::UpdatedInput]),
    ("deny + rewrite", &[ResultPart::Deny, ResultPart::UpdatedInput]),
    ("deny without reason", &[ResultPart::Deny]),
    ("unknown outcome", &[]),
];

/// What a run's stderr is, as far as the host cares.
#[derive(Debug, PartialEq, Eq)]
enum StderrClass {
    Empty,
    Note,
    Blocked,
    Error,
}

fn class(run: &Run) -> StderrClass {
    let lines: Vec<&str> = run.stderr.lines().collect();
    let only = |prefix: &str| lines.len() == 1 && lines[0].starts_with(prefix);
    match () {
        _ if lines.is_empty() => StderrClass::Empty,
        _ if only("Agent Bundle hook note: ") => StderrClass::Note,
        _ if only("Agent Bundle hook blocked: ") => StderrClass::Blocked,
        _ if only("Agent Bundle hook error: ") => StderrClass::Error,
        _ => panic!("stderr is not one line of ours: {:?}", run.stderr),
    }
}

/// The config event a family answers the same way, if any.
fn twin(family: Family) -> Option<CanonicalEvent> {
    let name = match family.name {
        "session/start" => "sessionStart",
        "tool/before" => "beforeTool",
        "tool/after" => "afterTool",
        "stop" => "stop",
        "agent/start" => "agentStart",
        "agent/stop" => "agentStop",
        "workspace/open" => "workspaceOpen",
        _ => return None,
    };
    CanonicalEvent::from_name(name)
}

/// One envelope both wrappers of a host accept: the union of what each row's mapping sends.
fn envelope(rows: &[&IndexRow]) -> Value {
    let mut merged = serde_json::Map::new();
    for row in rows {
        for (key, value) in common::envelope_with(row, Value::Object(Default::default())).as_object().unwrap() {
            merged.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    Value::Object(merged)
}

/// What the rules say a shape does on one side, from the host table alone: the exit code and the
/// stderr class. Used to check each side where the two sides' rules differ, and as a second
/// opinion where they agree.
fn expected(
    event: HookEvent,
    host: &hosts::HostTable,
    shape: &str,
    parts: &[ResultPart],
) -> (Option<i32>, StderrClass) {
    if matches!(shape, "deny without reason" | "unknown outcome" | "deny + rewrite") {
        return (Some(1), StderrClass::Error);
    }
    let supports: Vec<(ResultPart, PartSupport)> = parts.iter().map(|p| (*p, host.result_part(event, *p))).collect();
    if supports.iter().any(|(_, s)| matches!(s, PartSupport::Refuse(_))) {
        return (Some(1), StderrClass::Error);
    }
    if let Some((_, PartSupport::Block { exit, .. })) =
        supports.iter().find(|(_, s)| matches!(s, PartSupport::Block { .. }))
    {
        return (Some(*exit), StderrClass::Blocked);
    }
    // An allow a rewrite carries (Codex writes its rewrite with permissionDecision "allow") is not dropped.
    let carried = |part: ResultPart| {
        part == ResultPart::Allow
            && parts.contains(&ResultPart::UpdatedInput)
            && host.mapping(event).unwrap().result.rewrite_decision.as_deref() == Some("allow")
    };
    let dropped = supports.iter().any(|(part, s)| matches!(s, PartSupport::Drop(_)) && !carried(*part));
    (Some(0), if dropped { StderrClass::Note } else { StderrClass::Empty })
}

#[test]
fn routes_and_config_hooks_give_the_same_answer_for_every_shape_on_every_host() {
    require_node();
    let (_config_guard, config_artifact) = build_bundle("wrapper-matrix");
    let (_route_guard, route_artifact) = build_bundle("route-matrix");
    let config_rows = read_verified(&config_artifact, &RealDisk).unwrap().hooks;
    let route_rows = read_verified(&route_artifact, &RealDisk).unwrap().hooks;

    // Every route row, and its config twin on the same host (the non-fail-closed entry) if any.
    let mut pairs: Vec<(&IndexRow, Option<&IndexRow>, String)> = Vec::new();
    for route in &route_rows {
        let family = route.event.route().unwrap();
        let config = twin(family).and_then(|event| {
            config_rows.iter().find(|c| c.host == route.host && c.event == HookEvent::Config(event) && !c.fail_closed)
        });
        let stdin = match config {
            Some(config) => envelope(&[route, config]),
            None => envelope(&[route]),
        };
        pairs.push((route, config, stdin.to_string()));
    }
    let shape_env: Vec<[(&str, &str); 1]> =
        SHAPES.iter().map(|(shape, _)| [("AGENT_BUNDLE_TEST_SHAPE", *shape)]).collect();
    let mut route_cases = Vec::new();
    let mut config_cases = Vec::new();
    for (route, config, stdin) in &pairs {
        for env in &shape_env {
            route_cases.push(Case { wrapper: &route.path, stdin: stdin.as_bytes(), env });
            if let Some(config) = config {
                config_cases.push(Case { wrapper: &config.path, stdin: stdin.as_bytes(), env });
            }
        }
    }
    let mut routes = decide_all(&route_artifact, &route_cases).into_iter();
    let mut configs = decide_all(&config_artifact, &config_cases).into_iter();

    let (mut compared, mut differing_rules) = (0, 0);
    for (route, config, _) in &pairs {
        let family = route.event.route().unwrap();
        let table = hosts::table(route.host);
        for (shape, parts) in SHAPES {
            let routed = routes.next().unwrap();
            let label = format!("{} {} `{shape}`", route.host, family);
            // A failure or a block never leaves anything on stdout, on either side.
            if routed.code != Some(0) {
                assert_eq!(routed.stdout, "", "{label}: the route printed on a failure");
            }
            let route_expected = expected(route.event, table, shape, parts);
            assert_eq!((routed.code, class(&routed)), route_expected, "{label} (route): {}", routed.stderr);
            let Some(config) = config else { continue };
            let configured = configs.next().unwrap();
            let event = config.event.config().unwrap();
            let same_rules = parts.iter().all(|p| event.refuses(*p).is_some() == family.refuses(*p).is_some());
            if same_rules {
                compared += 1;
                assert_eq!(
                    (&routed.stdout, class(&routed), routed.code),
                    (&configured.stdout, class(&configured), configured.code),
                    "{label}: route and config hook answer differently\nroute stderr: {}\nconfig stderr: {}",
                    routed.stderr,
                    configured.stderr
                );
            } else {
                differing_rules += 1;
                let config_expected = expected(config.event, table, shape, parts);
                assert_eq!(
                    (configured.code, class(&configured)),
                    config_expected,
                    "{label} (config): {}",
                    configured.stderr
                );
            }
        }
    }
    println!("{compared} route/config comparisons; {differing_rules} where the event's and the family's rules differ");
    // The comparison covered the twins on every host (6 twins of 5 hosts, fewer where a host lacks one).
    assert!(compared > 300, "only {compared} route/config comparisons");
    assert!(differing_rules > 0, "agentStart/agent/start differ on deny, and nothing noticed");
}
