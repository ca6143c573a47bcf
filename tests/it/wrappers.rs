//! The emitted wrappers, run by the real node: the exact stdout of every host × event × result
//! shape, the stderr and exit code of every illegal one, real host envelopes, and malformed stdin.

use crate::common;

use std::fmt::Write as _;

use agent_bundle::artifact::{IndexRow, read_verified};
use agent_bundle::hosts;
use agent_bundle::io::RealDisk;
use agent_bundle::tools::simulate::encode;
use agent_bundle::vocabulary::canonical::Selector;
use agent_bundle::vocabulary::target::Target;
use common::{Case, Run, build_bundle, decide_all, describe, redact, require_node, run_wrapper};
use serde_json::{Value, json};

const SHAPES: &[&str] = &[
    "nothing",
    "null",
    "empty object",
    "continue",
    "context",
    "continue + context",
    "deny",
    "deny + context",
    "rewrite",
    "rewrite + context",
    "logs, then context",
    "async deny",
    "allow",
    "ask",
    "allow + rewrite",
    "allow + context",
    "children with inherited stdio, then context",
    "writes to fd 1, then context",
    "writes to /dev/stdout, then context",
    "a worker writes to fd 1, then context",
    "a child writes to fd 1 and fd 3, then context",
    "merges its input, then context",
    "pollutes Object.prototype, then context",
    "a frozen deny",
    "a null-prototype context",
    "deny without reason",
    "deny with blank reason",
    "reason without deny",
    "deny + rewrite",
    "stop",
    "unknown outcome",
    "mutates its input",
    "throws in a timer",
    "leaves a rejection",
    "unknown key",
    "context not a string",
    "reason not a string",
    "rewrite not an object",
    "rewrite an array",
    "an array",
    "a string",
    "a class instance",
    "a Proxy that says allow",
    "a getter outcome",
    "a hidden outcome",
    "an inherited outcome",
    "a rewrite with toJSON",
    "a rewrite holding a Date",
    "throws",
    "rejects",
];

/// Shapes whose outcome depends on the wrapper's process: what reaches fd 1, and errors that escape
/// the handler's promise. They run as real processes; the rest are decided in one node process.
const PROCESS_SHAPES: &[&str] = &[
    "logs, then context",
    "children with inherited stdio, then context",
    "writes to fd 1, then context",
    "writes to /dev/stdout, then context",
    "a worker writes to fd 1, then context",
    "a child writes to fd 1 and fd 3, then context",
    "pollutes Object.prototype, then context",
    "throws in a timer",
    "leaves a rejection",
];

/// The native envelope a host sends for `row`, encoded from the canonical superset.
fn envelope_for(row: &IndexRow) -> Value {
    common::envelope_with(row, json!({}))
}

#[test]
fn every_host_event_and_result_shape() {
    require_node();
    let (_guard, artifact) = build_bundle("wrapper-matrix");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let rows = manifest.hooks.clone();
    assert_eq!(
        rows.len(),
        46,
        "six events on five hosts, four on Gemini and on Factory Droid, a fail-closed beforeTool on each, and workspaceOpen on cursor"
    );

    // Shapes whose outcome depends on the process (what reaches fd 1, errors outside the handler's
    // promise) run as real wrapper processes; every other shape is decided in one node process by the
    // same runtime function the wrapper's process calls.
    let envelopes: Vec<String> = rows.iter().map(|row| envelope_for(row).to_string()).collect();
    let shape_env: Vec<[(&str, &str); 1]> = SHAPES.iter().map(|shape| [("AGENT_BUNDLE_TEST_SHAPE", *shape)]).collect();
    let mut cases = Vec::new();
    for (row, envelope) in rows.iter().zip(&envelopes) {
        for (shape, env) in SHAPES.iter().zip(&shape_env) {
            if !PROCESS_SHAPES.contains(shape) {
                cases.push(Case { wrapper: &row.path, stdin: envelope.as_bytes(), env });
            }
        }
    }
    let mut decided = decide_all(&artifact, &cases).into_iter();
    // As many wrapper processes at once as the machine has cores: each must finish well inside its
    // 1.6 s deadline, which 34 node start-ups at once on 2 cores do not (they take 2.5 s together).
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<Vec<Run>>>> = rows.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(row) = rows.get(index) else { break };
                    let runs = PROCESS_SHAPES
                        .iter()
                        .map(|shape| {
                            run_wrapper(
                                &artifact,
                                &row.path,
                                envelopes[index].as_bytes(),
                                &[("AGENT_BUNDLE_TEST_SHAPE", shape)],
                            )
                        })
                        .collect();
                    *slots[index].lock().unwrap() = Some(runs);
                }
            });
        }
    });
    let processes: Vec<Vec<Run>> = slots.into_iter().map(|slot| slot.into_inner().unwrap().unwrap()).collect();
    let mut results = Vec::new();
    for ((row, envelope), mut in_process) in rows.iter().zip(&envelopes).zip(processes) {
        let mut text = format!("stdin {envelope}\n");
        for shape in SHAPES {
            let run = match PROCESS_SHAPES.iter().position(|s| s == shape) {
                Some(_) => in_process.remove(0),
                None => decided.next().unwrap(),
            };
            // Whatever the shape, a failure never leaves anything on stdout, and it blocks (exit 2)
            // exactly when the hook is fail-closed. A guard part the host cannot carry (an ask on
            // Codex) blocks with exit 2 too, with its own line (D13).
            let blocked = run.stderr.lines().filter(|l| l.starts_with("Agent Bundle hook blocked: ")).count();
            if blocked > 0 {
                assert_eq!((run.code, blocked, run.stdout.as_str()), (Some(2), 1, ""), "{} {shape}", row.path);
            } else if run.code != Some(0) {
                assert_eq!(run.stdout, "", "{} {shape}: a failing wrapper printed on stdout", row.path);
                let blocking = if row.fail_closed { 2 } else { 1 };
                assert_eq!(run.code, Some(blocking), "{} {shape}: failures exit {blocking}", row.path);
                let ours = run.stderr.lines().filter(|l| l.starts_with("Agent Bundle hook error: ")).count();
                assert_eq!(ours, 1, "{} {shape}: one error line on stderr", row.path);
            }
            // Nothing a handler or its children print reaches the answer channel.
            assert!(
                !run.stdout.contains("child") && !run.stdout.contains("direct write"),
                "{} {shape}: output leaked into the answer: {}",
                row.path,
                run.stdout
            );
            let _ = write!(text, "\n## {shape}\n{}", describe(&run, &artifact));
        }
        let closed = if row.fail_closed { "-fail-closed" } else { "" };
        results.push((format!("{}-{}{closed}", row.host, row.event), text));
    }
    for (name, text) in results {
        insta::assert_snapshot!(name, text);
    }
}

#[test]
fn a_hanging_handler_is_bounded_by_the_hook_timeout() {
    require_node();
    let (_guard, artifact) = build_bundle("wrapper-matrix");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    for (host, event) in [(Target::Claude, "beforeTool"), (Target::Codex, "stop"), (Target::Cursor, "sessionStart")] {
        let row = manifest.hooks.iter().find(|r| r.host == host && r.event.name() == event && !r.fail_closed).unwrap();
        for shape in ["hangs", "answers late"] {
            let started = std::time::Instant::now();
            let run = run_wrapper(
                &artifact,
                &row.path,
                envelope_for(row).to_string().as_bytes(),
                &[("AGENT_BUNDLE_TEST_SHAPE", shape)],
            );
            assert_eq!(run.code, Some(1), "{shape}: {}", run.stderr);
            assert_eq!(run.stdout, "", "{shape}: the late answer must not follow the deadline's failure");
            assert_eq!(run.stderr.lines().count(), 1, "{shape}: settled once: {}", run.stderr);
            // 2 s less a fifth, counted from node's start: the host's kill at 2 s never comes first.
            assert!(run.stderr.contains("did not finish within 1600 ms of the hook's start"), "{}", run.stderr);
            assert!(started.elapsed() < std::time::Duration::from_secs(10));
        }
    }
}

#[test]
fn a_fail_closed_guard_blocks_with_the_hosts_exit_on_every_failure() {
    require_node();
    let (_guard, artifact) = build_bundle("wrapper-matrix");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let guards: Vec<_> = manifest.hooks.iter().filter(|r| r.fail_closed).collect();
    assert_eq!(guards.len(), 7, "one fail-closed beforeTool per host");
    for row in guards {
        let envelope = envelope_for(row).to_string();
        let cases: [(&str, &[u8]); 4] = [
            ("throws", envelope.as_bytes()),
            ("hangs", envelope.as_bytes()),
            ("unknown key", envelope.as_bytes()),
            ("nothing", b"{not json"),
        ];
        for (shape, stdin) in cases {
            let run = run_wrapper(&artifact, &row.path, stdin, &[("AGENT_BUNDLE_TEST_SHAPE", shape)]);
            assert_eq!(run.code, Some(2), "{} {shape}: {}", row.host, run.stderr);
            assert_eq!(run.stdout, "");
            assert!(
                run.stderr.trim_end().ends_with("the hook is fail-closed, so the tool call is blocked"),
                "{}",
                run.stderr
            );
        }
        // A guard that works is not blocked by being fail-closed.
        let run = run_wrapper(&artifact, &row.path, envelope.as_bytes(), &[("AGENT_BUNDLE_TEST_SHAPE", "nothing")]);
        assert_eq!((run.code, run.stdout.as_str()), (Some(0), ""), "{}", run.stderr);
    }
    // The hosts' own fields cover what the wrapper cannot catch (a kill at the timeout).
    let claude: Value = serde_json::from_slice(&std::fs::read(artifact.join("hooks/hooks.json")).unwrap()).unwrap();
    let entries: Vec<&Value> =
        claude["hooks"]["PreToolUse"].as_array().unwrap().iter().map(|g| &g["hooks"][0]).collect();
    assert_eq!(entries.iter().filter(|e| e["onFailure"] == "block").count(), 1, "{entries:?}");
    let cursor: Value =
        serde_json::from_slice(&std::fs::read(artifact.join(".cursor-plugin/hooks.json")).unwrap()).unwrap();
    let entries = cursor["hooks"]["preToolUse"].as_array().unwrap();
    assert_eq!(entries.iter().filter(|e| e["failClosed"] == true).count(), 1, "{entries:?}");
    let codex = std::fs::read_to_string(artifact.join(".codex-plugin/hooks.json")).unwrap();
    assert!(!codex.contains("onFailure") && !codex.contains("failClosed"), "Codex entries have no such field");
}

#[test]
fn every_recorded_host_envelope_is_accepted_by_the_matching_wrapper() {
    require_node();
    let (_guard, artifact) = build_bundle("wrapper-matrix");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let mut summary = String::new();
    for recorded in common::recorded_envelopes() {
        let (name, host, bytes, native) = (&recorded.name, recorded.host, &recorded.bytes, recorded.native.as_str());
        let Some(row) = manifest.hooks.iter().find(|r| r.host == host && r.native_event == native && !r.fail_closed)
        else {
            // Events the seven config events do not map to (UserPromptSubmit, SessionEnd, …).
            let mapped = agent_bundle::vocabulary::canonical::CanonicalEvent::ALL
                .iter()
                .any(|e| hosts::table(host).event(*e).is_ok_and(|m| m.native == native));
            assert!(!mapped, "{name}: {native} maps to a config event but has no wrapper");
            let _ = writeln!(summary, "{name}: {native} is not a config event");
            continue;
        };
        for shape in ["nothing", "deny", "context", "allow"] {
            let run = run_wrapper(&artifact, &row.path, bytes, &[("AGENT_BUNDLE_TEST_SHAPE", shape)]);
            if shape == "nothing" {
                assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);
                assert_eq!(run.stdout, "");
            }
            let _ = writeln!(summary, "{name} [{shape}] -> {}", describe(&run, &artifact).replace('\n', " | "));
        }
    }
    insta::assert_snapshot!(summary);
}

#[test]
fn malformed_stdin_is_refused_with_exit_1_and_nothing_on_stdout() {
    require_node();
    let (_guard, artifact) = build_bundle("wrapper-matrix");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let row = |host: Target, event: &str| {
        manifest.hooks.iter().find(|r| r.host == host && r.event.name() == event && !r.fail_closed).unwrap()
    };
    let claude_before = row(Target::Claude, "beforeTool");
    let codex_stop = row(Target::Codex, "stop");
    let valid = envelope_for(claude_before);
    let with = |key: &str, value: Value| {
        let mut envelope = valid.clone();
        envelope[key] = value;
        envelope.to_string().into_bytes()
    };
    let without = |key: &str| {
        let mut envelope = valid.clone();
        envelope.as_object_mut().unwrap().remove(key);
        envelope.to_string().into_bytes()
    };
    // The old 1 MiB cap let a large write through a guard (D13); the default limit is far above it.
    // The limit's own edge is tested on a small `maxInputBytes` (tests/it/fail_closed.rs), which costs
    // the machine nothing, rather than with two 64 MiB envelopes beside these timed runs.
    const OLD_CAP: usize = 1024 * 1024;
    let padded = |total: usize| {
        let mut bytes = valid.to_string().into_bytes();
        bytes.resize(total, b' ');
        bytes
    };
    let cases: Vec<(&str, &IndexRow, Vec<u8>, bool)> = vec![
        ("empty stdin", claude_before, Vec::new(), false),
        ("only whitespace", claude_before, b" \n\t".to_vec(), false),
        ("two JSON values", claude_before, format!("{valid} {valid}").into_bytes(), false),
        ("trailing bytes", claude_before, format!("{valid}x").into_bytes(), false),
        ("not UTF-8", claude_before, vec![b'{', 0xff, 0xfe, b'}'], false),
        ("1 MiB and one byte, over the old cap", claude_before, padded(OLD_CAP + 1), true),
        ("an array", claude_before, b"[]".to_vec(), false),
        ("a string", claude_before, b"\"PreToolUse\"".to_vec(), false),
        ("null", claude_before, b"null".to_vec(), false),
        ("another event's envelope", claude_before, with("hook_event_name", json!("PostToolUse")), false),
        ("a Cursor event name", claude_before, with("hook_event_name", json!("preToolUse")), false),
        ("no hook_event_name", claude_before, without("hook_event_name"), false),
        ("no session_id", claude_before, without("session_id"), false),
        ("no tool_input", claude_before, without("tool_input"), false),
        ("session_id a number", claude_before, with("session_id", json!(5)), false),
        ("tool_input a string on claude", claude_before, with("tool_input", json!("ls")), false),
        ("transcript_path null on claude", claude_before, with("transcript_path", json!(null)), false),
        ("permission_mode a number", claude_before, with("permission_mode", json!(1)), false),
        (
            "transcript_path null on codex",
            codex_stop,
            {
                let mut e = envelope_for(codex_stop);
                e["transcript_path"] = json!(null);
                e.to_string().into_bytes()
            },
            true,
        ),
        (
            "stop_hook_active a string on codex",
            codex_stop,
            {
                let mut e = envelope_for(codex_stop);
                e["stop_hook_active"] = json!("false");
                e.to_string().into_bytes()
            },
            false,
        ),
    ];
    let mut summary = String::new();
    for (label, row, stdin, accepted) in cases {
        let run = run_wrapper(&artifact, &row.path, &stdin, &[("AGENT_BUNDLE_TEST_SHAPE", "nothing")]);
        assert_eq!(run.stdout, "", "{label}: stdout must stay empty");
        assert_eq!(run.code, Some(if accepted { 0 } else { 1 }), "{label}: {}", run.stderr);
        let _ = writeln!(summary, "{label}: exit {:?} {}", run.code, redact(run.stderr.trim_end(), &artifact));
    }
    insta::assert_snapshot!(summary);
}

/// Guards as real plugins write them (testdata/bundles/guards), on all three hosts: what each host
/// gets for a dangerous command, a safe one, and a policy that breaks.
#[test]
fn guards_as_real_plugins_write_them() {
    require_node();
    let (_guard, artifact) = build_bundle("guards");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let mut summary = String::new();
    // Built for every host with hooks (Claude Code's plugin in one of its forms: `claude`); each is
    // given its own shell tool's name and the key its input holds the command under, from its table.
    let every: Vec<Target> = Target::ALL
        .into_iter()
        .filter(|t| hosts::table(*t).has_hooks() && hosts::table(*t).form_of.is_none())
        .collect();
    assert_eq!(manifest.hosts.keys().copied().collect::<Vec<_>>(), every);
    // Kilo CLI runs OpenCode's plugin: its hooks are OpenCode's rows, listed once.
    assert_eq!(manifest.hosts[&Target::Kilo].document, manifest.hosts[&Target::Opencode].document);
    assert!(!manifest.hooks.iter().any(|r| r.host == Target::Kilo));
    for host in every.into_iter().filter(|t| hosts::table(*t).served_by.is_none()) {
        let selector = hosts::table(host).selector(Selector::Shell).unwrap();
        let shell = selector.matches[0].as_str();
        let key = selector.input[shell].native_keys("command")[0];
        for (handler, command) in [
            ("deny-dangerous", "rm -rf /"),
            ("deny-dangerous", "ls"),
            ("allow-safe", "git status"),
            ("allow-safe", "make deploy"),
            ("policy", "cat .env"),
            ("policy", ""),
        ] {
            let row = manifest
                .hooks
                .iter()
                .find(|r| r.host == host && r.name.starts_with(&format!("before-tool-{handler}-")))
                .unwrap();
            let input = json!({
                "sessionId": "s", "transcriptPath": "/t", "cwd": "/w", "toolName": shell,
                "toolInput": { key: command }, "toolUseId": "t1", "turnId": "u1", "model": "m",
                "permissionMode": "default",
            });
            let envelope = encode(row, &input).unwrap();
            let run = run_wrapper(&artifact, &row.path, envelope.to_string().as_bytes(), &[]);
            if handler == "policy" && command.is_empty() {
                assert_eq!(run.code, Some(2), "{host}: a broken fail-closed policy must block");
            }
            if handler == "deny-dangerous" && !command.starts_with("ls") {
                let decoded = agent_bundle::tools::simulate::decode_answer(row, &run.stdout).unwrap();
                assert_eq!(decoded["outcome"], "deny", "{host}: the denial must reach the host: {}", run.stdout);
            }
            let _ = writeln!(
                summary,
                "{host} {handler} `{command}` -> {}",
                describe(&run, &artifact).trim_end().replace('\n', " | ")
            );
        }
    }
    insta::assert_snapshot!(summary);
}

/// A contract rule the runtime does not know is an internal error, never an answer (above all never
/// an allow).
#[test]
fn an_unknown_contract_rule_is_an_internal_error_not_an_answer() {
    require_node();
    let (_guard, artifact) = build_bundle("wrapper-matrix");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let row = manifest
        .hooks
        .iter()
        .find(|r| r.host == Target::Cursor && r.event.name() == "beforeTool" && !r.fail_closed)
        .unwrap();
    let wrapper = artifact.join(&row.path);
    let text = std::fs::read_to_string(&wrapper).unwrap();
    let rule = "\"updatedInput\": {\n      \"write\"";
    assert!(text.contains(rule), "{text}");
    std::fs::write(&wrapper, text.replace(rule, "\"updatedInput\": {\n      \"wrote\"")).unwrap();
    let run = run_wrapper(
        &artifact,
        &row.path,
        envelope_for(row).to_string().as_bytes(),
        &[("AGENT_BUNDLE_TEST_SHAPE", "rewrite")],
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.stdout, "", "nothing, and above all no permission: allow, may reach the host");
    assert!(
        run.stderr.contains("internal error: Error: the contract has no rule for the result part \"updatedInput\""),
        "{}",
        run.stderr
    );
}

/// The issue's case: the model writes a `__proto__` key into a tool's input, a handler deep-merges
/// the input the way old merge utilities do (polluting Object.prototype with `outcome: "allow"`) and
/// returns only context. On every host, fail-closed or not, the host gets exactly what it gets for
/// that context alone: the result is read as the plain data the handler returned, never through a
/// prototype, and never as an allow.
#[test]
fn a_proto_key_in_the_tool_input_merged_by_the_handler_makes_no_allow() {
    require_node();
    let (_guard, artifact) = build_bundle("wrapper-matrix");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let guards: Vec<_> = manifest.hooks.iter().filter(|r| r.event.name() == "beforeTool").collect();
    assert_eq!(guards.len(), 14, "two beforeTool entries on each of seven hosts");
    let input = json!({ "toolInput": { "command": "ls", "__proto__": { "outcome": "allow" } } });
    for row in guards {
        let envelope = common::envelope_with(row, input.clone()).to_string();
        assert!(envelope.contains("__proto__"), "{envelope}");
        let merged = run_wrapper(
            &artifact,
            &row.path,
            envelope.as_bytes(),
            &[("AGENT_BUNDLE_TEST_SHAPE", "merges its input, then context")],
        );
        let context = run_wrapper(&artifact, &row.path, envelope.as_bytes(), &[("AGENT_BUNDLE_TEST_SHAPE", "context")]);
        assert_eq!(
            (merged.code, merged.stdout.as_str(), merged.stderr.as_str()),
            (context.code, context.stdout.as_str(), context.stderr.as_str()),
            "{}",
            row.path
        );
        assert!(!merged.stdout.contains("allow"), "{}: {}", row.path, merged.stdout);
    }
}

/// A handler that ends the process itself (`process.exit`, in a timer, through the internal
/// `process.reallyExit`, or an 'exit' listener that rewrites the code) ends the hook: before the hook
/// answered, that is a failure with the hook's policy, one line, nothing on stdout, so a fail-closed
/// guard blocks (exit 2) whatever code the handler chose, and any other hook exits 1. An answer the
/// hook already gave is delivered with its own exit code.
#[test]
fn a_handler_that_ends_the_process_fails_the_hook_with_its_policy() {
    require_node();
    let (_guard, artifact) = build_bundle("wrapper-matrix");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let rows: Vec<_> = manifest
        .hooks
        .iter()
        .filter(|r| r.event.name() == "beforeTool" || (r.host == Target::Codex && r.event.name() == "stop"))
        .collect();
    assert_eq!(rows.len(), 15);
    for row in rows {
        let envelope = envelope_for(row).to_string();
        let failure = if row.fail_closed { 2 } else { 1 };
        for shape in [
            "exits 1",
            "exits 0",
            "exits 2",
            "exits in a timer",
            "exits really",
            "throws, with an exit listener that sets 0",
        ] {
            let run = run_wrapper(&artifact, &row.path, envelope.as_bytes(), &[("AGENT_BUNDLE_TEST_SHAPE", shape)]);
            assert_eq!((run.code, run.stdout.as_str()), (Some(failure), ""), "{} {shape}: {}", row.path, run.stderr);
            assert_eq!(run.stderr.lines().count(), 1, "{} {shape}: {}", row.path, run.stderr);
            assert!(run.stderr.starts_with("Agent Bundle hook error: "), "{} {shape}: {}", row.path, run.stderr);
            if shape.starts_with("exits") {
                assert!(run.stderr.contains("ended the process"), "{}", run.stderr);
            }
        }
        if row.event.name() == "beforeTool" {
            let run = run_wrapper(
                &artifact,
                &row.path,
                envelope.as_bytes(),
                &[("AGENT_BUNDLE_TEST_SHAPE", "denies, then exits 0 in a timer")],
            );
            let denied = run.stdout.contains("deny") || run.code == Some(2);
            assert!(denied, "{}: the denial must reach the host: {} {}", row.path, run.stdout, run.stderr);
        }
    }
}

/// Without the host command's handover (a wrapper run by hand, `node hooks/x.mjs`, or with some
/// unrelated descriptor 3 open), the wrapper answers on fd 1 and still keeps the handler's console
/// and direct fd 1 writes off it.
#[test]
fn a_wrapper_run_without_the_handover_answers_on_fd_1() {
    require_node();
    let (_guard, artifact) = build_bundle("wrapper-matrix");
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let row = manifest.hooks.iter().find(|r| r.host == Target::Claude && r.event.name() == "afterTool").unwrap();
    let envelope = envelope_for(row).to_string();
    for script in [r#"exec node "$0""#, r#"exec node "$0" 3</dev/null"#] {
        let output = std::process::Command::new("sh")
            .args(["-c", script])
            .arg(artifact.join(&row.path))
            .env("AGENT_BUNDLE_TEST_SHAPE", "logs, then context")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().unwrap().write_all(envelope.as_bytes())?;
                child.wait_with_output()
            })
            .unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert_eq!(output.status.code(), Some(0), "{script}: {stderr}");
        assert_eq!(
            stdout, r#"{"hookSpecificOutput":{"additionalContext":"extra context","hookEventName":"PostToolUse"}}"#,
            "{script}"
        );
        assert!(stderr.contains("a log line that must not reach stdout"), "{script}: {stderr}");
    }
}

/// A config stop handler gets `reentry` and, for one release, the same value under its old name
/// `stopHookActive`, from a real Claude Code envelope.
#[test]
fn a_config_stop_handler_gets_reentry_and_its_old_name() {
    require_node();
    let root = tempfile::tempdir().unwrap();
    common::write_file(
        root.path(),
        "agent-bundle.config.ts",
        "export default {\n  hooks: { stop: { handler: './stop.ts' } },\n  plugin: { name: 'reentry', description: 'Reports reentry.', version: '1.0.0', author: 'agent-bundle tests' },\n  targets: ['claude'],\n};\n",
    );
    common::write_file(
        root.path(),
        "stop.ts",
        "export default (event: { reentry: boolean; stopHookActive: boolean }) =>\n  ({ outcome: 'deny', reason: `reentry ${event.reentry}, stopHookActive ${event.stopHookActive}` });\n",
    );
    let (_guard, artifact) = common::build_root(&common::utf8(root.path()));
    let row =
        read_verified(&artifact, &RealDisk).unwrap().hooks.into_iter().find(|r| r.host == Target::Claude).unwrap();
    for (file, active) in [("Stop.json", false), ("Stop.stop_hook_active-true.json", true)] {
        let stdin = std::fs::read(format!("testdata/envelopes/claude-code/{file}")).unwrap();
        let run = run_wrapper(&artifact, &row.path, &stdin, &[]);
        assert_eq!(run.code, Some(0), "{file}: {}", run.stderr);
        assert!(run.stdout.contains(&format!("reentry {active}, stopHookActive {active}")), "{file}: {}", run.stdout);
    }
}

/// A handler ported from a hook script reads its envelope from stdin itself, in every way node offers,
/// and gets the bytes the host sent; a handler finds its payloads through `pluginRoot`, its state
/// through `dataDir` (the host's own folder where the host names one, else agent-bundle's default,
/// created when first read) and the project through `projectDir` (the host's variable, else the
/// envelope's folder), on every command host, each wrapper copied away from the source tree.
#[test]
fn handlers_read_stdin_and_find_the_plugins_places_on_every_host() {
    require_node();
    let hosts = ["claude", "codex", "copilot", "cursor", "droid", "gemini", "qwen"];
    let config = format!(
        "export default {{\n  hooks: {{\n    beforeTool: './src/hooks/reads-stdin.ts',\n    sessionStart: './src/hooks/places.ts',\n  }},\n  \
         payload: {{ notes: {{ source: './notes' }} }},\n  \
         plugin: {{ name: 'places', description: 'Finds its files.', version: '1.0.0', author: 'agent-bundle tests' }},\n  \
         targets: {hosts:?},\n}};\n"
    );
    let reads_stdin = r#"import fs, { readFileSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
export default async () => {
  const seen = [readFileSync(0, 'utf8'), fs.readFileSync('/dev/stdin').toString('utf8'), await readFile('/dev/stdin', 'utf8')];
  const chunks = [];
  const buffer = Buffer.alloc(7);
  for (let n; (n = readSync(0, buffer, 0, 7)) > 0; ) chunks.push(Buffer.from(buffer.subarray(0, n)));
  seen.push(Buffer.concat(chunks).toString('utf8'));
  let streamed = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) streamed += chunk;
  seen.push(streamed);
  fs.writeFileSync(process.env.AGENT_BUNDLE_TEST_OUT, JSON.stringify(seen));
};
"#;
    let places = r#"import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
export default (_event: unknown, context: { pluginRoot: string; projectDir?: string; dataDir: string }) => {
  const rules = readFileSync(join(context.pluginRoot, 'notes', 'rules.md'), 'utf8').trim();
  const dataDir = context.dataDir;
  writeFileSync(join(dataDir, 'state'), 'kept');
  writeFileSync(process.env.AGENT_BUNDLE_TEST_OUT, JSON.stringify({ rules, projectDir: context.projectDir ?? null, dataDir, made: existsSync(join(dataDir, 'state')) }));
};
"#;
    let (away, artifact) = common::bundle_artifact(&[
        ("src/hooks/reads-stdin.ts", reads_stdin),
        ("src/hooks/places.ts", places),
        ("notes/rules.md", "keep the tests green\n"),
        ("agent-bundle.config.ts", &config),
    ]);
    let artifact = common::utf8(&artifact);
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let mut checked = std::collections::BTreeSet::new();
    for row in &manifest.hooks {
        let out = away.path().join(format!("{}.json", row.path.replace('/', "_")));
        let out_text = out.to_str().unwrap().to_string();
        let surface = hosts::table(row.host).hooks.as_ref().unwrap();
        let places = &surface.places;
        if row.event.name() == "beforeTool" {
            let envelope = envelope_for(row).to_string();
            let run = run_wrapper(&artifact, &row.path, envelope.as_bytes(), &[("AGENT_BUNDLE_TEST_OUT", &out_text)]);
            assert_eq!(run.code, Some(0), "{}: {}", row.path, run.stderr);
            let seen: Vec<String> = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
            assert_eq!(seen, vec![envelope.clone(); 5], "{}: every read of stdin gets the envelope", row.path);
        } else {
            // Once with the host's own variables where it has them, once with none of them.
            for with_variables in [true, false] {
                let data_home = away.path().join(format!("data-home-{}-{with_variables}", row.host));
                let host_data = away.path().join(format!("host-data-{}", row.host));
                let data_home_text = data_home.to_str().unwrap().to_string();
                let host_data_text = host_data.to_str().unwrap().to_string();
                let mut env: Vec<(&str, &str)> =
                    vec![("AGENT_BUNDLE_TEST_OUT", &out_text), ("XDG_DATA_HOME", &data_home_text)];
                let mut expected_data = data_home.join("agent-bundle/plugins/places");
                let envelope = envelope_for(row);
                // The envelope's folder: the first of the table's keys it holds (a list's first item).
                let mut expected_project = places
                    .project_keys
                    .iter()
                    .find_map(|key| match &envelope[key] {
                        Value::String(folder) => Some(json!(folder)),
                        Value::Array(folders) => folders.first().cloned(),
                        _ => None,
                    })
                    .unwrap_or(Value::Null);
                if with_variables {
                    if let Some(name) = places.data_env.first() {
                        env.push((name, &host_data_text));
                        expected_data = host_data.clone();
                    }
                    if let Some(name) = places.project_env.first() {
                        env.push((name, "/tmp/project-from-the-host"));
                        expected_project = json!("/tmp/project-from-the-host");
                    }
                }
                let mut command_env = env.clone();
                // Variables the test process may have: none of them is the host's here.
                let cleared: Vec<&str> = places
                    .data_env
                    .iter()
                    .chain(&places.project_env)
                    .map(String::as_str)
                    .filter(|name| !env.iter().any(|(set, _)| set == name))
                    .collect();
                for name in &cleared {
                    command_env.push((name, ""));
                }
                let run = run_wrapper(&artifact, &row.path, envelope.to_string().as_bytes(), &command_env);
                assert_eq!(run.code, Some(0), "{}: {}", row.path, run.stderr);
                let seen: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
                assert_eq!(
                    seen,
                    json!({
                        "rules": "keep the tests green",
                        "projectDir": expected_project,
                        "dataDir": expected_data.to_str().unwrap(),
                        "made": true,
                    }),
                    "{} (host variables set: {with_variables})",
                    row.path
                );
            }
        }
        checked.insert((row.host.to_string(), row.event.name().to_string()));
    }
    assert_eq!(checked.len(), hosts.len() * 2, "{checked:?}");
}

/// An `async` hook (issue 43) does not hold its host up: the wrapper answers at once with nothing
/// and the handler runs in a detached copy of the wrapper,
/// which does its work after the host has its answer. The handler waits for a file the test writes
/// only once the wrapper has exited, so a wrapper that waited for it would end by its deadline with a
/// failure instead. `statusMessage` lands as the key of the hosts that show one, and nowhere else.
#[test]
fn an_async_hook_does_not_hold_its_host_up() {
    require_node();
    let (_away, artifact) = common::bundle_artifact(&[
        (
            "agent-bundle.config.ts",
            "export default {\n  hooks: {\n    afterTool: { handler: './src/hooks/record.ts', async: true, statusMessage: 'Recording the edit', timeout: 30 },\n  },\n  \
         plugin: { name: 'async-record', description: 'Records in the background.', version: '1.0.0', author: 'agent-bundle tests' },\n  \
         targets: ['claude', 'codex', 'cursor', 'gemini'],\n};\n",
        ),
        (
            "src/hooks/record.ts",
            r#"import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
export default async () => {
  const dir = process.env.AGENT_BUNDLE_TEST_DIR!;
  // Waits (bounded by the hook's deadline) for the test's go-ahead, written after the wrapper exited.
  while (!existsSync(join(dir, 'go'))) await new Promise((resolve) => setTimeout(resolve, 20));
  writeFileSync(join(dir, 'done'), String(process.pid));
  return { additionalContext: 'recorded' };
};
"#,
        ),
    ]);
    let artifact = common::utf8(&artifact);

    let entry = |document: &str, pointer: &str| -> Value {
        let text = std::fs::read_to_string(artifact.join(document)).unwrap();
        serde_json::from_str::<Value>(&text).unwrap().pointer(pointer).cloned().unwrap_or(Value::Null)
    };
    let claude = entry("hooks/hooks.json", "/hooks/PostToolUse/0/hooks/0");
    assert_eq!((&claude["async"], &claude["statusMessage"]), (&Value::Null, &json!("Recording the edit")), "{claude}");
    let codex = entry(".codex-plugin/hooks.json", "/hooks/PostToolUse/0/hooks/0");
    assert_eq!((&codex["async"], &codex["statusMessage"]), (&Value::Null, &json!("Recording the edit")), "{codex}");
    let cursor = entry(".cursor-plugin/hooks.json", "/hooks/postToolUse/0");
    assert_eq!((&cursor["async"], &cursor["statusMessage"]), (&Value::Null, &Value::Null), "{cursor}");

    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    for host in [Target::Claude, Target::Codex, Target::Cursor, Target::Gemini] {
        let row = manifest.hooks.iter().find(|r| r.host == host).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let dir_text = dir.path().to_str().unwrap().to_string();
        let envelope = envelope_for(row).to_string();
        let run = run_wrapper(&artifact, &row.path, envelope.as_bytes(), &[("AGENT_BUNDLE_TEST_DIR", &dir_text)]);
        assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (Some(0), "", ""), "{host}: answered at once");
        assert!(!dir.path().join("done").exists(), "{host}: the handler cannot have finished before the go-ahead");
        std::fs::write(dir.path().join("go"), "").unwrap();
        // Bounded: the detached run ends by the hook's deadline (30 s) whatever happens.
        let done = (0..1500).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            dir.path().join("done").exists()
        });
        assert!(done, "{host}: the detached run did the handler's work after the host had its answer");
    }
}

/// A result's `extra` (issue 43): `systemMessage` reaches the hosts whose answers show the user a line
/// (as their own field, beside the canonical parts) and is dropped with a note elsewhere; `env` is
/// Cursor's sessionStart `env` field and Claude Code's `export` lines in `$CLAUDE_ENV_FILE`; on stop,
/// `env` fails the hook (the page's rule), and so does an extra no host takes.
#[test]
fn extra_answers_reach_the_hosts_that_take_them() {
    require_node();
    let (away, artifact) = common::bundle_artifact(&[
        (
            "agent-bundle.config.ts",
            "export default {\n  hooks: {\n    sessionStart: './src/hooks/start.ts',\n    afterTool: './src/hooks/after.ts',\n    stop: './src/hooks/stop.ts',\n  },\n  \
         plugin: { name: 'extras', description: 'Extra answers.', version: '1.0.0', author: 'agent-bundle tests' },\n  \
         targets: ['claude', 'codex', 'copilot', 'cursor', 'droid', 'gemini', 'qwen'],\n};\n",
        ),
        (
            "src/hooks/start.ts",
            "export default () => ({ additionalContext: 'ctx', extra: { systemMessage: 'Loaded 3 notes', env: { NOTES_DIR: \"/tmp/it's here\" } } });\n",
        ),
        ("src/hooks/after.ts", "export default () => ({ extra: { systemMessage: 'Saved' } });\n"),
        (
            "src/hooks/stop.ts",
            "export default () => (process.env.AGENT_BUNDLE_TEST_SHAPE === 'env' ? { extra: { env: { A: 'b' } } } : { extra: { banner: 'x' } });\n",
        ),
    ]);
    let artifact = common::utf8(&artifact);
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let shows_messages = [Target::Claude, Target::Codex, Target::Droid, Target::Gemini, Target::Qwen];
    let mut seen = 0;
    for row in &manifest.hooks {
        let envelope = envelope_for(row).to_string();
        match row.event.name() {
            "afterTool" => {
                let run = run_wrapper(&artifact, &row.path, envelope.as_bytes(), &[]);
                assert_eq!(run.code, Some(0), "{}: {}", row.path, run.stderr);
                if shows_messages.contains(&row.host) {
                    let answer: Value = serde_json::from_str(&run.stdout).unwrap();
                    assert_eq!(answer, json!({ "systemMessage": "Saved" }), "{}", row.path);
                    assert_eq!(run.stderr, "", "{}", row.path);
                } else {
                    assert_eq!(run.stdout, "", "{}", row.path);
                    assert!(run.stderr.contains("dropped extra.systemMessage ("), "{}: {}", row.path, run.stderr);
                }
            }
            "sessionStart" => {
                let env_file = away.path().join(format!("env-{}.sh", row.host));
                let env_text = env_file.to_str().unwrap().to_string();
                let run = run_wrapper(&artifact, &row.path, envelope.as_bytes(), &[("CLAUDE_ENV_FILE", &env_text)]);
                assert_eq!(run.code, Some(0), "{}: {}", row.path, run.stderr);
                let answer: Value = serde_json::from_str(&run.stdout).unwrap_or(Value::Null);
                assert_eq!(
                    answer.get("systemMessage").is_some(),
                    shows_messages.contains(&row.host),
                    "{}: {}",
                    row.path,
                    run.stdout
                );
                assert_eq!(
                    answer.get("env").cloned(),
                    (row.host == Target::Cursor).then(|| json!({ "NOTES_DIR": "/tmp/it's here" })),
                    "{}: {}",
                    row.path,
                    run.stdout
                );
                let written = std::fs::read_to_string(&env_file).ok();
                assert_eq!(
                    written.as_deref(),
                    (row.host == Target::Claude).then_some("export NOTES_DIR='/tmp/it'\\''s here'\n"),
                    "{}",
                    row.path
                );
                if row.host == Target::Claude {
                    // What Claude Code does with the file: source it before a shell command.
                    let echoed = std::process::Command::new("sh")
                        .arg("-c")
                        .arg(format!(". '{env_text}'; printf %s \"$NOTES_DIR\""))
                        .output()
                        .unwrap();
                    assert_eq!(String::from_utf8_lossy(&echoed.stdout), "/tmp/it's here");
                }
            }
            "stop" => {
                for (shape, expected) in
                    [("env", "env sets variables for the session"), ("unknown", "unknown key \"banner\"")]
                {
                    let run =
                        run_wrapper(&artifact, &row.path, envelope.as_bytes(), &[("AGENT_BUNDLE_TEST_SHAPE", shape)]);
                    assert_eq!((run.code, run.stdout.as_str()), (Some(1), ""), "{} {shape}: {}", row.path, run.stderr);
                    assert!(run.stderr.contains(expected), "{} {shape}: {}", row.path, run.stderr);
                }
            }
            _ => unreachable!(),
        }
        seen += 1;
    }
    assert_eq!(seen, 21);
}

/// Property (issue 43): whatever envelope a host sends (any size, any characters, any spacing), a
/// handler that reads stdin itself reads exactly its bytes, by whichever way node offers and in any
/// chunk size: generated envelopes, each read by a randomly chosen way, compared byte for byte.
#[test]
fn every_way_of_reading_stdin_gets_the_envelope_byte_for_byte() {
    require_node();
    let handler = r#"import fs from 'node:fs';
export default async () => {
  const way = process.env.AGENT_BUNDLE_TEST_SHAPE;
  const chunk = Number(process.env.AGENT_BUNDLE_TEST_CHUNK);
  let bytes;
  if (way === 'readFileSync(0)') bytes = fs.readFileSync(0);
  else if (way === 'readFileSync(/dev/stdin, utf8)') bytes = Buffer.from(fs.readFileSync('/dev/stdin', 'utf8'));
  else if (way === 'promises.readFile') bytes = await fs.promises.readFile('/dev/stdin');
  else if (way === 'readFile callback') bytes = await new Promise((resolve, reject) => fs.readFile(0, (e, b) => (e ? reject(e) : resolve(b))));
  else if (way === 'readSync chunks') {
    const parts = [];
    const buffer = new Uint8Array(chunk);
    for (let n; (n = fs.readSync(0, buffer, { offset: 0, length: chunk })) > 0; ) parts.push(Buffer.from(buffer.subarray(0, n)));
    bytes = Buffer.concat(parts);
  } else {
    const parts = [];
    for await (const part of process.stdin) parts.push(Buffer.from(part));
    bytes = Buffer.concat(parts);
  }
  fs.writeFileSync(process.env.AGENT_BUNDLE_TEST_OUT, bytes);
};
"#;
    let config = "export default {\n  hooks: { afterTool: './src/hooks/echo.ts' },\n  \
                  plugin: { name: 'stdin-echo', description: 'Echoes stdin.', version: '1.0.0', author: 'agent-bundle tests' },\n  \
                  targets: ['claude', 'gemini'],\n};\n";
    let (away, artifact) = common::one_handler_artifact("echo.ts", handler, config);
    let artifact = common::utf8(&artifact);
    let manifest = read_verified(&artifact, &RealDisk).unwrap();
    let ways = [
        "readFileSync(0)",
        "readFileSync(/dev/stdin, utf8)",
        "promises.readFile",
        "readFile callback",
        "readSync chunks",
        "process.stdin",
    ];
    let alphabet = ["a", " ", "\\", "\"", "\n", "é", "€", "😀", "\u{2028}", "漢", "\t", "}"];
    let out = away.path().join("read.bin");
    let out_text = out.to_str().unwrap().to_string();
    for seed in 1..=36u64 {
        let mut random = common::Random::seeded(seed);
        let row = &manifest.hooks[random.below(manifest.hooks.len())];
        let mut envelope = envelope_for(row);
        // A command of random characters and size (up to about 200 KB), and random spacing.
        let length = if random.chance(20) { 50_000 + random.below(150_000) } else { random.below(300) };
        let text: String = (0..length).map(|_| random.pick(&alphabet)).collect();
        envelope["tool_input"] = json!({ "command": text });
        let mut bytes =
            if random.chance(50) { serde_json::to_string_pretty(&envelope).unwrap() } else { envelope.to_string() }
                .into_bytes();
        if random.chance(30) {
            bytes.extend(b"\n\n  ");
        }
        let way = random.pick(&ways);
        let chunk = (1 + random.below(9000)).to_string();
        let _ = std::fs::remove_file(&out);
        let run = run_wrapper(
            &artifact,
            &row.path,
            &bytes,
            &[
                ("AGENT_BUNDLE_TEST_SHAPE", way),
                ("AGENT_BUNDLE_TEST_CHUNK", &chunk),
                ("AGENT_BUNDLE_TEST_OUT", &out_text),
            ],
        );
        assert_eq!(run.code, Some(0), "seed {seed} ({way}, {} bytes): {}", bytes.len(), run.stderr);
        let read = std::fs::read(&out).unwrap();
        assert!(read == bytes, "seed {seed} ({way}, chunk {chunk}): read {} bytes of {}", read.len(), bytes.len());
    }
}
