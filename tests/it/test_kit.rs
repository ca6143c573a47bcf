//! agent-bundle's test kit (`#agent-bundle/testing`, issue 47 item 6), which an author's own tests
//! import to run a hook as a host's wrapper would: `init`'s bundle runs its example test with
//! `npm test` under the pinned vitest, which fails when the guard is broken; and for every envelope
//! a real host was recorded sending, the kit hands a handler (and a route) what the built wrapper of
//! that host and event hands it, or fails as that wrapper fails.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use agent_bundle::artifact::{IndexRow, read_verified};
use agent_bundle::io::RealDisk;
use agent_bundle::vocabulary::target::Target;
use serde_json::{Value, json};

/// `npm <args>` in `dir`: its exit code and output, colours off and no registry asked.
fn npm(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new("npm")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("NPM_CONFIG_UPDATE_NOTIFIER", "false")
        .env_remove("FORCE_COLOR")
        .output()
        .expect("`npm` runs: the test kit's example test runs under `npm test`; install Node.js with npm");
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    (output.status.code(), text)
}

/// `init`'s bundle, with its packages as `npm install` makes them (the pins testdata/typescript
/// installs, so the run is of those very versions).
fn initialised(work: &Path, args: &[&str]) -> PathBuf {
    let output =
        common::cli().current_dir(work).args(["agent-bundle", "init", "kit-guards"]).args(args).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let bundle = work.join("kit-guards");
    let pins = |path: &Path| -> Value {
        let package: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        package["devDependencies"].clone()
    };
    assert_eq!(
        pins(&bundle.join("package.json")),
        pins(Path::new("testdata/typescript/package.json")),
        "init pins the packages tested here"
    );
    common::linked_test_packages(&bundle);
    bundle
}

#[test]
fn init_bundles_example_test_passes_under_npm_test_and_fails_when_the_guard_breaks() {
    common::require_node();
    let work = tempfile::tempdir().unwrap();
    let bundle = initialised(work.path(), &[]);
    for file in [
        "vitest.config.ts",
        "test/before-tool.test.ts",
        "test/fixtures/claude-PreToolUse.json",
        "test/fixtures/claude-PreToolUse.rm-rf-home.json",
        ".agent-bundle/types/agent-bundle/testing.mjs",
        ".agent-bundle/types/agent-bundle/testing.d.mts",
        ".agent-bundle/types/@agent-bundle/runtime/index.mjs",
    ] {
        assert!(bundle.join(file).is_file(), "{file}");
    }
    // The fixture is the envelope Claude Code was recorded sending.
    let fixture: Value =
        serde_json::from_str(&std::fs::read_to_string(bundle.join("test/fixtures/claude-PreToolUse.json")).unwrap())
            .unwrap();
    let recorded: Value =
        serde_json::from_str(&std::fs::read_to_string("testdata/envelopes/claude-code/PreToolUse.json").unwrap())
            .unwrap();
    assert_eq!(fixture, recorded);
    let readme = std::fs::read_to_string(bundle.join("README.md")).unwrap();
    assert!(readme.contains("npm test") && readme.contains("`test/before-tool.test.ts`"), "{readme}");

    let (code, output) = npm(&bundle, &["test"]);
    assert_eq!(code, Some(0), "{output}");
    assert!(output.contains("2 passed"), "{output}");
    // The test and its use of the kit type-check against the kit's declarations.
    let (code, output) = npm(&bundle, &["run", "typecheck"]);
    assert_eq!(code, Some(0), "{output}");

    // A guard that no longer sees `~`: the test of the home folder fails.
    let guard_path = bundle.join("src/hooks/before-tool.ts");
    let guard = std::fs::read_to_string(&guard_path).unwrap();
    assert_eq!(guard.matches("(\\/|~)").count(), 1, "the guard's pattern changed: update this test\n{guard}");
    std::fs::write(&guard_path, guard.replace("(\\/|~)", "(\\/)")).unwrap();
    let (code, output) = npm(&bundle, &["test"]);
    assert_ne!(code, Some(0), "{output}");
    assert!(output.contains("refuses to delete the home folder") && output.contains("1 failed"), "{output}");
    // A guard whose denial has no reason: the runtime's own check fails it, as the wrapper would.
    let reasonless = guard.replacen("reason: `", "reason: '' && `", 1);
    assert_ne!(reasonless, guard);
    std::fs::write(&guard_path, reasonless).unwrap();
    let (code, output) = npm(&bundle, &["test"]);
    assert_ne!(code, Some(0), "{output}");
    assert!(output.contains("HookFailure"), "{output}");
    assert!(output.contains("a denial needs a non-empty reason"), "{output}");
}

/// init's example test follows the first host of the chosen targets that was recorded: the greeting
/// where the bundle has no guard.
#[test]
fn init_writes_the_example_test_for_the_chosen_host_and_event() {
    common::require_node();
    let work = tempfile::tempdir().unwrap();
    let bundle = initialised(work.path(), &["--targets", "gemini,codex", "--events", "sessionStart,stop"]);
    assert!(bundle.join("test/session-start.test.ts").is_file());
    assert!(bundle.join("test/fixtures/gemini-SessionStart.json").is_file());
    assert!(!bundle.join("test/before-tool.test.ts").exists());
    let (code, output) = npm(&bundle, &["test"]);
    assert_eq!(code, Some(0), "{output}");
    assert!(output.contains("1 passed"), "{output}");

    // An event route the author adds: its JSX runs under vitest (vitest.config.ts has the build's
    // `@agent-bundle/runtime` stand in), rendered by the kit into Gemini CLI's answer.
    common::write_file(&bundle, "src/events/session/start.tsx", SESSION_ROUTE);
    common::write_file(&bundle, "test/route.test.ts", SESSION_ROUTE_TEST);
    let (code, output) = npm(&bundle, &["test"]);
    assert_eq!(code, Some(0), "{output}");
    assert!(output.contains("2 passed") && output.contains("2 passed (2)"), "{output}");
    let (code, output) = npm(&bundle, &["run", "typecheck"]);
    assert_eq!(code, Some(0), "{output}");

    // No chosen host was recorded (Cursor runs offline nowhere): no example, and `npm test` passes
    // until a test is written.
    let work = tempfile::tempdir().unwrap();
    let bundle = initialised(work.path(), &["--targets", "cursor"]);
    assert!(!bundle.join("test").exists());
    let (code, output) = npm(&bundle, &["test"]);
    assert_eq!(code, Some(0), "{output}");
}

/// A route of the session/start family, as an author writes one.
const SESSION_ROUTE: &str = r#"import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteProps } from 'agent-bundle';

export default async function SessionStart({ canonical }: AgentEventRouteProps<'session/start'>) {
  const source = canonical.payload.source?.value ?? 'unknown';
  return (
    <Agent.Result value={{ outcome: 'continue' }}>
      <Agent.Context>{`Started by ${source} on ${canonical.provenance.host}.`}</Agent.Context>
    </Agent.Result>
  );
}
"#;

/// Its test: the props a wrapper gives it, and its answer.
const SESSION_ROUTE_TEST: &str = r#"import { expect, it } from 'vitest';
import { readEnvelope, renderRoute, routeInput } from '#agent-bundle/testing';

const envelope = readEnvelope(new URL('./fixtures/gemini-SessionStart.json', import.meta.url));

it('tells the model how the session started', async () => {
  const props = await routeInput('gemini', 'session/start', envelope);
  expect(props.canonical.payload.source).toEqual({ value: 'startup', nativeKey: 'source' });
  const run = await renderRoute('gemini', 'session/start', import('../src/events/session/start'), envelope);
  expect(run.result).toEqual({ outcome: 'continue', additionalContext: 'Started by startup on gemini.' });
  expect(run.answer).toEqual({
    hookSpecificOutput: { additionalContext: 'Started by startup on gemini.', hookEventName: 'SessionStart' },
  });
});
"#;

/// `types` writes the kit beside the declarations (so `--check` covers it) and says what a bundle's
/// package.json needs to import it, never rewriting the author's package.json.
#[test]
fn types_writes_the_kit_and_says_how_package_json_maps_it() {
    let work = tempfile::tempdir().unwrap();
    let package = "{\n  \"name\": \"mine\",\n  \"type\": \"module\"\n}\n";
    common::write_file(work.path(), "package.json", package);
    let output = common::cli().current_dir(work.path()).args(["agent-bundle", "types"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("wrote    .agent-bundle/types/agent-bundle/testing.mjs"), "{stdout}");
    assert!(
        stdout.contains("note: package.json does not map `#agent-bundle/testing` to the test kit: add `\"imports\": {\"#agent-bundle/testing\":\"./.agent-bundle/types/agent-bundle/testing.mjs\"}`"),
        "{stdout}"
    );
    assert_eq!(std::fs::read_to_string(work.path().join("package.json")).unwrap(), package);
    // The kit is covered by --check: a changed kit is out of date.
    let check = || common::cli().current_dir(work.path()).args(["agent-bundle", "types", "--check"]).output().unwrap();
    assert!(check().status.success());
    let kit = work.path().join(".agent-bundle/types/agent-bundle/testing.mjs");
    std::fs::write(&kit, std::fs::read_to_string(&kit).unwrap() + "// edited\n").unwrap();
    let output = check();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("testing.mjs` is not up to date"));
}

// ---------------------------------------------------------------------------------------------
// The kit against the built wrappers

/// What a handler and a route are shown by (the echo of both sides): their arguments as plain data,
/// a field that throws when read (a tool field the host sent unreadable) as its message, and the
/// context's places read.
const SHOWN: &str = r#"
function snapshot(value) {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(snapshot);
  const out = {};
  for (const key of Object.keys(value)) {
    try {
      out[key] = snapshot(value[key]);
    } catch (error) {
      out[key] = { unreadable: String(error && error.message) };
    }
  }
  return out;
}
function shownHook(event, context) {
  return {
    event: snapshot(event),
    frozen: Object.isFrozen(event) && Object.isFrozen(context),
    context: snapshot({
      target: context.target,
      nativeEvent: context.nativeEvent,
      nativeInput: context.nativeInput,
      pluginRoot: context.pluginRoot,
      projectDir: context.projectDir,
      dataDir: context.dataDir,
      mcpToolName: context.mcpToolName('none', 'tool') ?? null,
    }),
  };
}
function shownRoute(props) {
  const { observedAt, sequence, ...canonical } = props.canonical;
  return {
    canonical: snapshot(canonical),
    observedAt: typeof observedAt,
    native: snapshot(props.native),
    frozen: Object.isFrozen(props) && Object.isFrozen(props.canonical.payload),
    pluginRoot: props.pluginRoot,
    projectDir: props.projectDir,
    dataDir: props.dataDir,
    signal: props.signal instanceof AbortSignal && !props.signal.aborted,
  };
}
"#;

/// The kit's side: each case's `hookInput` or `routeInput`, shown as the handler shows its own.
const KIT_SCRIPT: &str = r#"
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [kit, casesFile, outFile] = process.argv.slice(2);
const { hookInput, routeInput, HookFailure } = await import(pathToFileURL(kit).href);
const results = [];
for (const c of JSON.parse(readFileSync(casesFile, 'utf8'))) {
  try {
    if (c.route) {
      results.push({ shown: shownRoute(await routeInput(c.host, c.event, c.envelope, c.options)) });
    } else {
      const { event, context } = await hookInput(c.host, c.event, c.envelope, c.options);
      results.push({ shown: shownHook(event, context) });
    }
  } catch (error) {
    if (!(error instanceof HookFailure)) throw error;
    results.push({ failure: { exitCode: error.exitCode, stderr: error.stderr } });
  }
}
writeFileSync(outFile, JSON.stringify(results));
"#;

/// How the echo hook marks what it shows on stderr.
const ECHO: &str = "KIT-ECHO ";

/// A bundle with a hook of every config event and a route of every family, on every host with hooks,
/// each showing what it was handed; built, with the kit written beside its declarations.
fn echo_bundle(root: &Path) -> (tempfile::TempDir, PathBuf) {
    let events: Vec<String> = agent_bundle::vocabulary::canonical::CanonicalEvent::ALL
        .iter()
        .map(|event| format!("    {}: './src/echo.ts',\n", event.name()))
        .collect();
    common::write_file(
        root,
        "agent-bundle.config.ts",
        &format!(
            "export default {{\n\
             \x20 plugin: {{ name: 'kit-echo', description: 'Shows what hooks are handed.', version: '1.0.0', author: 'agent-bundle tests', license: 'MIT' }},\n\
             \x20 targets: ['claude', 'codex', 'copilot', 'cursor', 'droid', 'gemini', 'opencode', 'qwen'],\n\
             \x20 bundle: {{ combineCommands: false }},\n\
             \x20 hooks: {{\n{}\x20 }},\n\
             }};\n",
            events.concat()
        ),
    );
    common::write_file(
        root,
        "src/echo.ts",
        &format!(
            "// @ts-nocheck\n{SHOWN}\n\
             export default (event, context) => {{ console.error({ECHO:?} + JSON.stringify(shownHook(event, context))); }};\n\
             export function echoRoute(props) {{ console.error({ECHO:?} + JSON.stringify(shownRoute(props))); return null; }}\n"
        ),
    );
    for family in agent_bundle::vocabulary::family::FAMILIES {
        let depth = family.name.matches('/').count() + 1;
        let echo = format!("{}echo", "../".repeat(depth));
        common::write_file(
            root,
            &format!("src/events/{}.tsx", family.name),
            &format!(
                "import {{ echoRoute }} from '{echo}';\n\nexport default async function Route(props: any) {{\n  return echoRoute(props);\n}}\n"
            ),
        );
    }
    agent_bundle::tools::types::write_types(&common::utf8(root), false).unwrap();
    let (guard, artifact) = common::build_root(&common::utf8(root));
    (guard, std::fs::canonicalize(artifact).unwrap())
}

/// One recorded envelope on one hook: the host that runs it, and where it was recorded.
struct Delivery {
    recorded: String,
    envelope: Value,
    row: IndexRow,
}

/// Which host runs a folder's recordings: the host tables' word (`recordedEnvelopes`), and the hosts
/// that run another host's hook files (VS Code's agent and Copilot CLI's compatible mode run Claude
/// Code's), OpenCode, Pi and Cline CLI (whose recordings their entry modules make envelopes of).
fn host_of(folder: &str) -> Target {
    let named = [Target::Claude, Target::Codex, Target::Copilot, Target::Droid, Target::Gemini, Target::Qwen]
        .into_iter()
        .find(|t| agent_bundle::hosts::table(*t).recorded_envelopes.as_deref() == Some(folder));
    match (named, folder) {
        (Some(target), _) => target,
        (None, "vscode-agent" | "copilot-cli/vscode-compatible") => Target::Claude,
        (None, "opencode") => Target::Opencode,
        (None, "pi") => Target::Pi,
        (None, "cline") => Target::Cline,
        _ => panic!("testdata/envelopes/{folder}: say which host runs these recordings"),
    }
}

/// Every recorded envelope, with each hook of the bundle its host runs it on (the host's native
/// event, named by the envelope or its file), and the recordings no hook takes.
fn deliveries(rows: &[IndexRow]) -> (Vec<Delivery>, Vec<String>) {
    let mut folders = vec![];
    for entry in std::fs::read_dir("testdata/envelopes").unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            for inner in std::fs::read_dir(&path).unwrap() {
                let inner = inner.unwrap().path();
                if inner.is_dir() {
                    folders.push(format!("{name}/{}", inner.file_name().unwrap().to_string_lossy()));
                }
            }
            folders.push(name);
        }
    }
    folders.sort();
    let (mut found, mut untaken) = (Vec::new(), Vec::new());
    for folder in folders {
        let host = host_of(&folder);
        let mut files: Vec<PathBuf> = std::fs::read_dir(format!("testdata/envelopes/{folder}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for path in files {
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            if ["SOURCES.json", "effects.json", "hook-env.json", "plugin-context.json", "extension-api.json"]
                .contains(&file.as_str())
            {
                continue;
            }
            let envelope: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            // The event: as the envelope names it, else as its file does (OpenCode's `hook.`/`event.`
            // and a case after the event's own name).
            let stem = file.trim_end_matches(".json");
            let stem = stem.strip_prefix("hook.").or_else(|| stem.strip_prefix("event.")).unwrap_or(stem);
            // Cline's payloads name their native event `hookName`.
            let named = envelope["hook_event_name"]
                .as_str()
                .or_else(|| if host == Target::Cline { envelope["hookName"].as_str() } else { None });
            let takes = |row: &&IndexRow| {
                row.host == host
                    && match named {
                        Some(native) => row.native_event == native,
                        None => stem == row.native_event || stem.starts_with(&format!("{}.", row.native_event)),
                    }
            };
            let taken: Vec<&IndexRow> = rows.iter().filter(takes).collect();
            if taken.is_empty() {
                untaken.push(format!("{folder}/{file}"));
            }
            for row in taken {
                found.push(Delivery {
                    recorded: format!("{folder}/{file}"),
                    envelope: envelope.clone(),
                    row: row.clone(),
                });
            }
        }
    }
    (found, untaken)
}

/// Every variable a host table names for the places or a foreign sender: none of them leaks into a
/// wrapper from the tests' own environment.
fn host_variables() -> Vec<String> {
    let mut names = Vec::new();
    for target in Target::ALL {
        let Some(surface) = &agent_bundle::hosts::table(target).hooks else { continue };
        names.extend(surface.places.data_env.iter().cloned());
        names.extend(surface.places.project_env.iter().cloned());
        for foreign in &surface.foreign_envelopes {
            names.extend(foreign.present_env.iter().cloned());
        }
    }
    names.sort();
    names.dedup();
    names
}

/// What the wrapper showed: the handler's echo, or how the wrapper ended without calling it.
fn wrapper_side(artifact: &Path, row: &IndexRow, envelope: &Value, env: &BTreeMap<String, String>) -> Value {
    let _slot = common::node_slot();
    let mut command = agent_bundle::tools::simulate::host_command(&common::utf8(artifact), row).unwrap();
    for name in host_variables() {
        command.env_remove(name);
    }
    let mut child = command
        .envs(env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the host's shell runs");
    let input = serde_json::to_vec(envelope).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write as _;
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let echoed: Vec<&str> = stderr.lines().filter_map(|l| l.strip_prefix(ECHO)).collect();
    match echoed.as_slice() {
        [shown] => {
            assert_eq!(output.status.code(), Some(0), "{}: {stderr}", row.name);
            assert_eq!(stdout, "", "{}: a handler that returns nothing has nothing to say", row.name);
            json!({ "shown": serde_json::from_str::<Value>(shown).unwrap() })
        }
        [] => {
            let lines: Vec<&str> = stderr.lines().collect();
            json!({ "failure": { "exitCode": output.status.code(), "stderr": lines } })
        }
        _ => panic!("{}: echoed twice: {stderr}", row.name),
    }
}

/// For every recorded envelope and every hook its host runs it on (a config hook and a route of each
/// event the host table maps), the kit's `hookInput` / `routeInput` equal what the built wrapper
/// hands the handler, field by field (the canonical event and tool, the context and its places), or
/// fail with the wrapper's own exit code and lines where it runs no handler.
#[test]
fn the_kit_hands_a_handler_what_the_built_wrapper_does_for_every_recorded_envelope() {
    common::require_node();
    let root = tempfile::tempdir().unwrap();
    let (_guard, artifact) = echo_bundle(root.path());
    let manifest = read_verified(&common::utf8(&artifact), &RealDisk).unwrap();
    let (deliveries, untaken) = deliveries(&manifest.hooks);
    let places = tempfile::tempdir().unwrap();
    let places = std::fs::canonicalize(places.path()).unwrap();
    // The wrapper's own data folder where the host names none (its per-user one, under this home).
    let xdg = places.join("xdg");
    let own_data = xdg.join("agent-bundle/plugins/kit-echo");
    let mut cases = Vec::new();
    let mut wrapper_env = Vec::new();
    for (index, delivery) in deliveries.iter().enumerate() {
        let host = delivery.row.host;
        let surface = agent_bundle::hosts::table(host).hooks.as_ref().unwrap();
        // The host's variables: its data folder's always, its project's on every other delivery (the
        // rest find the project by the envelope's keys).
        let mut env = BTreeMap::new();
        if let Some(name) = surface.places.data_env.first() {
            env.insert(name.clone(), places.join(format!("data-{host}")).display().to_string());
        }
        if let (Some(name), 1) = (surface.places.project_env.first(), index % 2) {
            env.insert(name.clone(), places.join(format!("project-{host}")).display().to_string());
        }
        let plugin_root = match &surface.folder {
            Some(folder) => artifact.join(folder),
            None => artifact.clone(),
        };
        let route = delivery.row.event.route();
        cases.push(json!({
            "host": host.name(),
            "event": delivery.row.event.name(),
            "route": route.is_some(),
            "envelope": delivery.envelope,
            "options": {
                "env": env,
                "name": delivery.row.name,
                "pluginRoot": plugin_root,
                "dataDir": own_data,
                "directory": artifact,
            },
        }));
        let mut process_env = env.clone();
        process_env.insert("HOME".into(), places.join("home").display().to_string());
        process_env.insert("XDG_DATA_HOME".into(), xdg.display().to_string());
        wrapper_env.push(process_env);
    }

    // The wrappers, two at a time.
    let wrappers: Vec<Value> = std::thread::scope(|scope| {
        let runs: Vec<_> = deliveries
            .iter()
            .zip(&wrapper_env)
            .map(|(delivery, env)| {
                let artifact = &artifact;
                scope.spawn(move || wrapper_side(artifact, &delivery.row, &delivery.envelope, env))
            })
            .collect();
        runs.into_iter().map(|run| run.join().unwrap()).collect()
    });

    // The kit, in one node process, as a test of an author's runs it.
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("kit.mjs"), format!("{SHOWN}\n{KIT_SCRIPT}")).unwrap();
    std::fs::write(work.path().join("cases.json"), serde_json::to_vec(&cases).unwrap()).unwrap();
    let output = Command::new("node")
        .arg(work.path().join("kit.mjs"))
        .arg(root.path().join(".agent-bundle/types/agent-bundle/testing.mjs"))
        .arg(work.path().join("cases.json"))
        .arg(work.path().join("results.json"))
        .current_dir(&artifact)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .output()
        .expect("node runs");
    assert!(output.status.success(), "the kit's script failed: {}", String::from_utf8_lossy(&output.stderr));
    let kit: Vec<Value> = serde_json::from_slice(&std::fs::read(work.path().join("results.json")).unwrap()).unwrap();
    assert_eq!(kit.len(), deliveries.len());

    let mut differ = Vec::new();
    let (mut shown, mut failed) = (0, 0);
    let mut folders = std::collections::BTreeSet::new();
    for ((delivery, wrapper), kit) in deliveries.iter().zip(&wrappers).zip(&kit) {
        if wrapper == kit {
            if wrapper.get("shown").is_some() {
                shown += 1
            } else {
                failed += 1
            }
            folders.insert(delivery.recorded.rsplit_once('/').unwrap().0.to_string());
        } else {
            differ.push(format!(
                "{} on {} ({}):\n  wrapper {wrapper}\n  kit     {kit}",
                delivery.recorded, delivery.row.name, delivery.row.host
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "the kit differs from the wrapper in {} of {} deliveries:\n{}",
        differ.len(),
        deliveries.len(),
        differ.join("\n")
    );
    // Every folder of recordings was compared, on handlers that ran and on wrappers that ran none.
    assert!(folders.len() >= 9, "{folders:?}");
    assert!(shown >= 100 && failed >= 10, "{shown} shown, {failed} without a handler run; untaken: {untaken:?}");
}

// ---------------------------------------------------------------------------------------------
// The kit's types

/// How a test of an author's uses the kit, each mistake a type error at its line: the declarations
/// tie a call's event to its payload and its result to the rules of that event.
const TYPED_USE: &str = r#"
import { HookFailure, hookInput, readEnvelope, renderRoute, routeInput, runHook } from '#agent-bundle/testing';
import type { AgentEventRouteProps, HookHandler } from 'agent-bundle';

const envelope = readEnvelope('envelope.json');
const guard: HookHandler<'beforeTool'> = ({ tool }) =>
  tool.kind === 'shell' ? { outcome: 'deny', reason: tool.command } : undefined;
const onStop: HookHandler<'stop'> = () => undefined;

export async function uses() {
  const { event, context } = await hookInput('claude', 'beforeTool', envelope, { env: { CLAUDE_PROJECT_DIR: '/p' } });
  const kind: string = event.tool.kind;
  const where: string | undefined = context.projectDir;
  // @ts-expect-error: beforeTool's payload has no session source
  event.source;
  const run = await runHook('claude', 'beforeTool', guard, envelope, { failClosed: true });
  const denied: boolean = run.status === 'answered' && run.result?.outcome === 'deny';
  const stopped = await runHook('codex', 'stop', onStop, envelope);
  // @ts-expect-error: a stop hook cannot allow
  const allowed: 'allow' | undefined = stopped.result?.outcome;
  // @ts-expect-error: a guard reads the tool, which sessionStart has not
  await runHook('claude', 'sessionStart', guard, envelope);
  // @ts-expect-error: not a host
  await runHook('vim', 'beforeTool', guard, envelope);
  const props = await routeInput('claude', 'tool/before', envelope);
  const nativeKey: string | undefined = props.canonical.payload.tool?.nativeKey;
  const Route = async (route: AgentEventRouteProps<'tool/before'>) => (route.signal.aborted ? null : undefined);
  const rendered = await renderRoute('claude', 'tool/before', Route, envelope);
  const context2: string | undefined = rendered.result?.additionalContext;
  // @ts-expect-error: a tool/before route does not render stop's deliveries
  await renderRoute('claude', 'stop', Route, envelope);
  try {
    await runHook('claude', 'PreToolUse', guard, envelope);
  } catch (error) {
    if (error instanceof HookFailure) return [error.exitCode, error.blocks, error.stderr.length];
  }
  return [kind, where, denied, allowed, nativeKey, context2];
}
"#;

/// The kit module as `types` writes it type-checks as the shipped runtime does (`checkJs`, strict,
/// Node 18's types), its declarations with no library check skipped, and a test's use of the kit
/// against them, each mistake in it an error.
#[test]
fn the_kit_and_its_declarations_type_check_and_type_a_tests_calls() {
    common::require_node();
    common::npm_installed(camino::Utf8Path::new("testdata/typescript"));
    let tsc = std::fs::canonicalize("testdata/typescript/node_modules/.bin/tsc").unwrap();
    let types_root = std::fs::canonicalize("testdata/typescript/node_modules/@types").unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path();
    common::write_file(
        root,
        "package.json",
        &format!(
            "{{ \"type\": \"module\", \"imports\": {} }}\n",
            agent_bundle::tools::types::testing::package_imports()
        ),
    );
    agent_bundle::tools::types::write_types(&common::utf8(root), false).unwrap();
    std::fs::copy("src/pipeline/emit/runtime/types.d.ts", root.join("runtime-shapes.d.ts")).unwrap();
    common::write_file(root, "test/uses.ts", TYPED_USE);
    let check = |name: &str, config: Value| {
        std::fs::write(root.join(name), config.to_string()).unwrap();
        let output = Command::new(&tsc).current_dir(root).args(["--noEmit", "-p", name]).output().unwrap();
        let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{name}:\n{text}");
    };
    check(
        "tsconfig.kit.json",
        json!({
            "compilerOptions": {
                "allowJs": true, "checkJs": true, "noEmit": true, "strict": true, "noImplicitAny": false,
                "target": "es2022", "lib": ["es2022"], "module": "nodenext", "moduleResolution": "nodenext",
                "typeRoots": [types_root], "types": ["node"],
            },
            "files": ["runtime-shapes.d.ts", ".agent-bundle/types/agent-bundle/testing.mjs"],
        }),
    );
    let mut tests = agent_bundle::tools::types::tsconfig_template();
    tests["compilerOptions"]["skipLibCheck"] = json!(false);
    tests["compilerOptions"]["typeRoots"] = json!([types_root]);
    tests["compilerOptions"]["types"] = json!(["node"]);
    tests["include"] = json!(["test", ".agent-bundle/types/agent-bundle/testing.d.mts"]);
    check("tsconfig.json", tests);
}
