//! One process per tool call (issue 46, D18), by property: for generated calls of a plugin whose
//! four hooks share one event (their matchers overlapping, two of them fail-closed) and whose
//! handlers each do what the call tells them (deny, allow, ask, add context, nothing, throw, throw
//! from a timer, hang, end the process, block the thread), the combined command's answer is the
//! host's combination of the answers the same hooks give as commands of their own: no denial lost,
//! the strongest decision kept, every context kept. Real processes under node, on three hosts whose
//! answers differ in shape; each answer read back through the host table (`decode_answer`).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agent_bundle::artifact::{ArtifactManifest, IndexRow};
use agent_bundle::tools::simulate::decode_answer;
use agent_bundle::vocabulary::canonical::Selector;
use agent_bundle::vocabulary::target::Target;
use camino::Utf8Path;
use serde_json::{Value, json};

use crate::common::{self, Random};

/// Each hook's behaviour comes from the call: `plan[i]` of the envelope is hook i's.
fn handler(index: usize) -> String {
    format!(
        "export default async (_event: unknown, context: {{ nativeInput: Record<string, unknown> }}) => {{\n\
         \x20 const does = (context.nativeInput.plan as string[])[{index}];\n\
         \x20 switch (does) {{\n\
         \x20   case 'deny': return {{ outcome: 'deny', reason: 'hook {index} denies' }};\n\
         \x20   case 'allow': return {{ outcome: 'allow' }};\n\
         \x20   case 'ask': return {{ outcome: 'ask' }};\n\
         \x20   case 'context': return {{ additionalContext: 'hook {index} adds' }};\n\
         \x20   case 'throw': throw new Error('hook {index} throws');\n\
         \x20   case 'late': setTimeout(() => {{ throw new Error('hook {index} throws late'); }}, 5);\n\
         \x20     await new Promise((resolve) => setTimeout(resolve, 60));\n\
         \x20     return {{ additionalContext: 'hook {index} too late' }};\n\
         \x20   case 'hang': return new Promise(() => {{}});\n\
         \x20   case 'exit': (globalThis as any)['pro' + 'cess']['ex' + 'it'](0); return undefined;\n\
         \x20   case 'spin': for (;;) {{}}\n\
         \x20   default: return undefined;\n\
         \x20 }}\n\
         }};\n"
    )
}

const CONFIG: &str = "export default {\n\
  plugin: { name: 'combined', description: 'Four hooks on one event.', version: '1.0.0' },\n\
  targets: ['claude', 'gemini', 'copilot'],\n\
  hooks: {\n\
    beforeTool: [\n\
      { handler: './src/hooks/h0.ts', tools: ['shell'], failClosed: true, timeout: 2 },\n\
      { handler: './src/hooks/h1.ts', timeout: 2 },\n\
      { handler: './src/hooks/h2.ts', tools: ['shell', 'file.read'], timeout: 2 },\n\
      { handler: './src/hooks/h3.ts', tools: ['file.read'], failClosed: true, timeout: 2 },\n\
    ],\n\
  },\n\
};\n";

/// What a host makes of one hook's (or the combined command's) process: blocked (its blocking exit,
/// with what it said), its answer read back, or nothing (a failure that fails open).
#[derive(Debug)]
enum Outcome {
    Blocked(String),
    Answered(Value),
    Nothing,
}

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    timed_out: bool,
}

/// `node <wrapper>` with the host's stdout handed over on fd 3 (the POSIX command form), `stdin` in,
/// ended at the hooks' timeout as the host would end it.
fn run(artifact: &Utf8Path, wrapper: &str, stdin: &[u8]) -> Ran {
    let _slot = common::node_slot();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("exec node \"$1\" 3>&1 1>&2")
        .arg("sh")
        .arg(artifact.join(wrapper))
        .current_dir(artifact)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    // The hooks' timeout (2 s), as the host keeps it.
    let started = Instant::now();
    let mut timed_out = false;
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(2) {
            let _ = child.kill();
            timed_out = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let output = child.wait_with_output().unwrap();
    Ran {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        timed_out,
    }
}

/// The host's view of a run: `fail_closed` is whether a failure of it blocks (a timeout of a
/// fail-closed hook blocks, as its policy says); where the host blocks on every failure of the
/// event (Copilot CLI's preToolUse), any non-zero exit blocks.
fn outcome(row: &IndexRow, ran: &Ran, fail_closed: bool) -> Outcome {
    if ran.timed_out {
        return if fail_closed { Outcome::Blocked("timed out".into()) } else { Outcome::Nothing };
    }
    let table = agent_bundle::hosts::table(row.host);
    let any_failure_blocks =
        table.mapping(row.event).ok().and_then(|m| m.fail_closed.as_ref()).is_some_and(|how| how.any_failure_blocks);
    match ran.code {
        Some(0) => match decode_answer(row, &ran.stdout) {
            Ok(Value::Null) => Outcome::Nothing,
            Ok(answer) => Outcome::Answered(answer),
            Err(why) => panic!("{} answered what the host cannot read ({why}): {}", row.name, ran.stdout),
        },
        Some(2) => Outcome::Blocked(ran.stderr.clone()),
        _ if any_failure_blocks => Outcome::Blocked(ran.stderr.clone()),
        _ => Outcome::Nothing,
    }
}

/// Whether the host stops at this answer when it runs hooks in turn: a denial or a block.
fn stops(outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Blocked(_) => true,
        Outcome::Answered(answer) => answer["outcome"] == "deny",
        Outcome::Nothing => false,
    }
}

fn rank(outcome: &str) -> usize {
    ["continue", "allow", "ask", "deny"].iter().position(|o| *o == outcome).expect("a known outcome")
}

#[test]
fn the_combined_command_answers_as_the_host_combines_the_separate_hooks() {
    common::require_node();
    let mut files: Vec<(String, String)> = (0..4).map(|i| (format!("src/hooks/h{i}.ts"), handler(i))).collect();
    files.push(("agent-bundle.config.ts".into(), CONFIG.into()));
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (_away, artifact) = common::bundle_artifact(&borrowed);
    let artifact = common::utf8(&artifact);
    let text = std::fs::read_to_string(artifact.join(agent_bundle::artifact::MANIFEST_PATH)).unwrap();
    let manifest: ArtifactManifest = serde_json::from_str(&text).unwrap();
    let behaviours: &[(&str, u64)] = &[
        ("none", 20),
        ("deny", 12),
        ("allow", 10),
        ("ask", 6),
        ("context", 24),
        ("throw", 10),
        ("late", 6),
        ("hang", 4),
        ("exit", 5),
        ("spin", 3),
    ];
    let total: u64 = behaviours.iter().map(|(_, weight)| weight).sum();
    for target in [Target::Claude, Target::Gemini, Target::Copilot] {
        let mut rows: Vec<&IndexRow> = manifest.hooks.iter().filter(|r| r.host == target).collect();
        rows.sort_by_key(|r| r.name.clone());
        assert_eq!(rows.len(), 4, "{target}: every hook is placed");
        let combined = rows[0].combined.clone().expect("the four hooks share one command");
        assert!(rows.iter().all(|r| r.combined.as_deref() == Some(combined.as_str())), "{target}: one command");
        let table = agent_bundle::hosts::table(target);
        let native = |selector: Selector| table.selector(selector).unwrap().matches[0].clone();
        let mut random = Random::seeded(46 + target as u64);
        for case in 0..16 {
            let tool = if random.chance(50) { native(Selector::Shell) } else { native(Selector::FileRead) };
            let plan: Vec<&str> = (0..4)
                .map(|_| {
                    let mut roll = random.next() % total;
                    behaviours
                        .iter()
                        .find(|(_, weight)| {
                            let hit = roll < *weight;
                            roll = roll.saturating_sub(*weight);
                            hit
                        })
                        .unwrap()
                        .0
                })
                .collect();
            let mut envelope = common::envelope_with(rows[0], json!({ "toolName": tool }));
            envelope["plan"] = json!(plan);
            let stdin = serde_json::to_vec(&envelope).unwrap();
            let what = format!("{target} case {case}: {tool} with {plan:?}");
            // Each hook the host would run for this tool, alone: all of them, or in turn up to the
            // first that denies.
            let in_turn = table.hooks.as_ref().unwrap().several_hooks == agent_bundle::hosts::SeveralHooks::InTurn;
            let mut separate: Vec<Outcome> = Vec::new();
            for row in rows
                .iter()
                .filter(|row| row.matcher.as_deref().is_none_or(|m| regex::Regex::new(m).unwrap().is_match(&tool)))
            {
                separate.push(outcome(row, &run(&artifact, &row.path, &stdin), row.fail_closed));
                if in_turn && separate.last().is_some_and(stops) {
                    break;
                }
            }
            let together = run(&artifact, &combined, &stdin);
            assert!(!together.timed_out, "{what}: the combined command outlived the hooks' timeout");
            let together = outcome(rows[0], &together, true);
            let denials: Vec<String> = separate
                .iter()
                .filter_map(|o| match o {
                    Outcome::Answered(a) if a["outcome"] == "deny" => Some(a["reason"].as_str().unwrap().to_string()),
                    _ => None,
                })
                .collect();
            let blocked = separate.iter().any(|o| matches!(o, Outcome::Blocked(_)));
            if blocked || !denials.is_empty() {
                // No denial lost: the call is denied, with every hook's reason.
                let said = match &together {
                    Outcome::Blocked(stderr) => stderr.clone(),
                    Outcome::Answered(a) if a["outcome"] == "deny" => a["reason"].as_str().unwrap().to_string(),
                    other => panic!("{what}: the separate hooks deny, the combined command answers {other:?}"),
                };
                for reason in &denials {
                    assert!(said.contains(reason), "{what}: the denial {reason:?} is not in {said:?}");
                }
                continue;
            }
            let strongest = separate
                .iter()
                .filter_map(|o| match o {
                    Outcome::Answered(a) => a["outcome"].as_str(),
                    _ => None,
                })
                .max_by_key(|o| rank(o))
                .unwrap_or("continue");
            let mut contexts: Vec<&str> = separate
                .iter()
                .filter_map(|o| match o {
                    Outcome::Answered(a) => a["additionalContext"].as_str(),
                    _ => None,
                })
                .collect();
            contexts.sort_unstable();
            match &together {
                Outcome::Answered(answer) => {
                    assert_eq!(answer["outcome"], strongest, "{what}: {answer}");
                    let mut given: Vec<&str> =
                        answer["additionalContext"].as_str().map(|c| c.split('\n').collect()).unwrap_or_default();
                    given.sort_unstable();
                    assert_eq!(given, contexts, "{what}: {answer}");
                }
                Outcome::Nothing => {
                    assert_eq!(strongest, "continue", "{what}: the combined command said nothing");
                    assert!(contexts.is_empty(), "{what}: the combined command lost {contexts:?}");
                }
                Outcome::Blocked(stderr) => panic!("{what}: blocked ({stderr}) though no hook blocks alone"),
            }
        }
    }
}
