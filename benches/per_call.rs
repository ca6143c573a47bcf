//! What one tool call costs on each host (issue 46, item 5): the plugin of `benches/per_call/`
//! (eight hooks on the shell tool's before-tool event: a fail-closed guard, three observers that log,
//! two context adders, an event route and a hook that uses node:fs), built for every host and run
//! from a copy of the artifact with no node_modules above it. One call is the shell tool's
//! before-tool event (all eight hooks are on it), run as the host runs it:
//!
//!   * command hosts: every entry of the host's hook document (read from the document, not from the
//!     artifact's index, so a document that gives one command to several hooks is measured as it is)
//!     whose event is the host's native before-tool event and whose matcher takes the host's shell
//!     tool, each started as the host starts it (an exec form's program with its arguments; a
//!     command line through `bash -c`, or `sh -c` for the hosts whose shell need not be a POSIX one:
//!     Codex's `$SHELL -lc` and Cursor's shell), with the host's envelope on stdin; all at once
//!     (Claude Code, Codex, Gemini CLI, Qwen Code, Factory Droid) or one after another (Copilot
//!     CLI, Cursor), to the last answer;
//!   * `claude-mod` (Claude Code with its hooks module): the document's command entries as Claude
//!     Code starts them, plus the hooks the module runs in Claude Code's process, timed by Claude
//!     Code's own engine under `claude plugin test` (needs the Claude Code `scripts/host-e2e.sh`
//!     installs, `AGENT_BUNDLE_HOSTS_DIR` or ~/.cache/agent-bundle-hosts; without it the row says
//!     so and shows the command part alone);
//!   * `opencode`: in process: one node process loads `opencode/plugin.mjs` once and calls its
//!     `tool.execute.before` a call at a time (wall and CPU timed inside node);
//!   * the same plugin written by hand, as plugins in the wild ship it: eight `node` scripts, one per
//!     hook, reading the envelope on stdin and answering as Claude Code expects, run as Claude Code
//!     runs them (command lines through `bash -c`, all at once);
//!   * the floors: `bash -c 'exit 0'`, node on a bare .mjs that reads its stdin.
//!
//! Per call: processes started and programs run (counted in a separate, untimed pass: shims named
//! `node`, `sh` and `bash` first on PATH append their pid to a file and exec the real program, so an
//! exec of one of them in the same process is a program but not a process), CPU ms (the children's
//! user + system time, `getrusage(RUSAGE_CHILDREN)` around the call; in process, `process.cpuUsage`
//! in node, and for the hooks module the engine's whole CPU over many calls less its CPU over none,
//! per call) and wall ms; medians of RUNS interleaved runs (the rows take turns, each run starting
//! one row later). Asserts nothing but that the answers are right: no denial and the two contexts
//! where the host takes context on this event for `git status`, a denial for `rm -rf build`.
//!
//!   cargo bench --bench per_call -- [RUNS]      (default 20 runs; 100 × RUNS calls in process)

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use agent_bundle::artifact::{ArtifactManifest, IndexRow};
use agent_bundle::hosts::{self, CommandShell, DocumentFormat, HookSurface, WindowsForm};
use agent_bundle::io::RealDisk;
use agent_bundle::vocabulary::canonical::{CanonicalEvent, Selector};
use agent_bundle::vocabulary::hook_event::HookEvent;
use agent_bundle::vocabulary::target::Target;
use serde_json::{Value, json};

#[allow(dead_code, reason = "shared with tests/it, which uses all of it; this uses a part")]
#[path = "../tests/it/common/mod.rs"]
mod common;

/// How a host starts the entries that match one event.
#[derive(Clone, Copy, PartialEq)]
enum Order {
    /// All at once, waiting for the last (Claude Code's hooks reference: "all matching hooks run in
    /// parallel"; Codex; Gemini CLI and Qwen Code unless a group asks `sequential`; Factory Droid,
    /// whose reference is Claude Code's).
    AllAtOnce,
    /// Each to its end before the next (Copilot CLI; Cursor, whose docs do not say: the slower
    /// reading; OpenCode, whose entry module awaits each hook in turn, in process).
    OneAfterAnother,
}

/// Every host the product supports, in the README's order, with how it starts one event's hooks.
const HOSTS: [(Target, Order); 9] = [
    (Target::Claude, Order::AllAtOnce),
    (Target::ClaudeMod, Order::AllAtOnce),
    (Target::Codex, Order::AllAtOnce),
    (Target::Copilot, Order::OneAfterAnother),
    (Target::Gemini, Order::AllAtOnce),
    (Target::Cursor, Order::OneAfterAnother),
    (Target::Qwen, Order::AllAtOnce),
    (Target::Droid, Order::AllAtOnce),
    (Target::Opencode, Order::OneAfterAnother),
];

/// The command of the timed call, which every hook lets through, and of the checked denial.
const LET_THROUGH: &str = "git status";
const REFUSED: &str = "rm -rf build";
/// What the two context adders say (their handlers in benches/per_call/src/hooks/).
const CONTEXTS: [&str; 2] =
    ["per-call: work on a branch, never on main.", "per-call: run the tests before committing (git)."];

/// One program a call starts: the program (a name looked up on PATH), its arguments, its own
/// variables, its folder and its stdin.
#[derive(Clone)]
struct Launch {
    program: String,
    args: Vec<String>,
    env: Vec<(String, String)>,
    cwd: PathBuf,
    stdin: Vec<u8>,
}

/// One row's call: what it starts, in which order, and how its answers are read.
struct Call {
    name: String,
    channel: String,
    order: Order,
    /// The call let through and the call refused; empty for the in-process rows.
    through: Vec<Launch>,
    refused: Vec<Launch>,
    /// The index row whose host and event decode the answers (none: the floors, which answer nothing).
    decode: Option<IndexRow>,
    /// Whether the contexts must be in the answers of the call let through.
    expect_context: bool,
    /// Whether the call refused must be refused by these commands (not where the guard runs in the
    /// hooks module, whose own test checks it).
    expect_deny: bool,
    /// A host: the targets apply to it.
    host: Option<Target>,
    /// The hooks that are no guard (not fail-closed) and still run as a command on a host that can
    /// call them in (its hooks module, the warm server): none where the target is met.
    non_guard_commands: usize,
    /// Hooks the host calls in (its hooks module, the warm server).
    called_in: usize,
}

struct Output {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// What the untimed counting pass and the timed runs found for one row.
#[derive(Default)]
struct Figures {
    processes: usize,
    programs: usize,
    cpu: Vec<f64>,
    wall: Vec<f64>,
}

/// Per-call figures a row adds from inside a host's process (the hooks module, OpenCode).
struct InProcess {
    cpu: f64,
    wall: f64,
    first: f64,
    calls: usize,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let runs: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(20).max(1);
    let bundle = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/per_call");
    let (_built, built) = common::build_root(&common::utf8(&bundle));
    let away = tempfile::tempdir().unwrap();
    let artifact = away.path().join("artifact");
    common::copy_tree(built.as_std_path(), &artifact);
    let manifest = agent_bundle::artifact::read_verified(&common::utf8(&artifact), &RealDisk).unwrap();
    // Claude Code's hooks module is the other form of Claude Code's plugin: the plugin built for it apart.
    let module_bundle = away.path().join("bundle-for-claude-mod");
    common::copy_tree(&bundle, &module_bundle);
    let _ = std::fs::remove_dir_all(module_bundle.join("artifact"));
    let config = module_bundle.join("agent-bundle.config.ts");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("targets: ['claude',", "targets: ['claude-mod',")).unwrap();
    let (_module_built, module_built) = common::build_root(&common::utf8(&module_bundle));
    let module_artifact = away.path().join("module-artifact");
    common::copy_tree(module_built.as_std_path(), &module_artifact);
    let module_manifest = agent_bundle::artifact::read_verified(&common::utf8(&module_artifact), &RealDisk).unwrap();
    assert!(module_manifest.hosts.contains_key(&Target::ClaudeMod), "the copy is built for claude-mod");
    // And for Claude Code with the plugin's warm server (`warmServer`): its hooks that may fail open
    // answered by the server through `mcp_tool` entries.
    let warm_bundle = away.path().join("bundle-with-warm-server");
    common::copy_tree(&bundle, &warm_bundle);
    let _ = std::fs::remove_dir_all(warm_bundle.join("artifact"));
    let config = warm_bundle.join("agent-bundle.config.ts");
    let text = std::fs::read_to_string(&config).unwrap();
    let targets = text.lines().find(|l| l.trim_start().starts_with("targets:")).unwrap().to_string();
    std::fs::write(&config, text.replace(&targets, "  bundle: { warmServer: true },\n  targets: ['claude'],")).unwrap();
    let (_warm_built, warm_built) = common::build_root(&common::utf8(&warm_bundle));
    let warm_artifact = away.path().join("warm-artifact");
    common::copy_tree(warm_built.as_std_path(), &warm_artifact);
    let warm_manifest = agent_bundle::artifact::read_verified(&common::utf8(&warm_artifact), &RealDisk).unwrap();
    assert!(warm_manifest.hooks.iter().any(|r| r.warm_server), "the copy's server answers hooks");
    let data = away.path().join("data");
    let shims = away.path().join("shims");
    let hand = away.path().join("hand");
    std::fs::create_dir_all(&data).unwrap();
    write_shims(&shims);
    write_hand_written(&hand);

    let mut calls = Vec::new();
    for (target, order) in HOSTS {
        if target == Target::Opencode {
            continue;
        }
        let (artifact, manifest) =
            if target == Target::ClaudeMod { (&module_artifact, &module_manifest) } else { (&artifact, &manifest) };
        calls.push(host_call(artifact, manifest, target, order, &data));
    }
    let mut warm_call = host_call(&warm_artifact, &warm_manifest, Target::Claude, Order::AllAtOnce, &data);
    warm_call.name = "claude-warm".to_string();
    calls.push(warm_call);
    calls.push(hand_written_call(&hand, &manifest, &data));
    calls.extend(floors(&hand, &manifest));

    let node = Command::new("node").arg("--version").output().unwrap();
    println!(
        "agent-bundle per-call benchmark: 8 hooks on the shell tool's before-tool event, {runs} interleaved runs, node {}, \
         load average {}",
        String::from_utf8_lossy(&node.stdout).trim(),
        load_average()
    );

    // The answers, once per row (also the warm-up), then the processes, counted apart from the times.
    for call in &calls {
        check(call, &run(call, &call.through, None, &data).0, false);
        check(call, &run(call, &call.refused, None, &data).0, true);
    }
    let mut figures: Vec<Figures> = calls.iter().map(|_| Figures::default()).collect();
    for (call, figures) in calls.iter().zip(&mut figures) {
        let counter = away.path().join("started");
        let _ = std::fs::remove_file(&counter);
        run(call, &call.through, Some((&shims, &counter)), &data);
        let lines = std::fs::read_to_string(&counter).unwrap_or_default();
        figures.programs = lines.lines().count();
        figures.processes = lines.lines().filter_map(|l| l.split(' ').next()).collect::<BTreeSet<_>>().len();
    }
    for round in 0..runs {
        for i in 0..calls.len() {
            let index = (i + round) % calls.len();
            let (_, wall, cpu) = run(&calls[index], &calls[index].through, None, &data);
            figures[index].wall.push(wall);
            figures[index].cpu.push(cpu);
        }
    }

    let hooks_module = claude_mod_in_engine(&module_artifact, runs * 100, &data);
    let warm = warm_server_in_node(&warm_artifact, away.path(), runs * 100, &data);
    let opencode = opencode_in_process(&artifact, away.path(), runs * 100, &data);
    report(&calls, &figures, hooks_module, &warm, &opencode, &manifest);
    println!("load average after the runs: {}", load_average());
    let log = std::fs::read_to_string(data.join("agent-bundle/plugins/per-call/calls.log")).unwrap_or_default();
    assert!(log.lines().any(|l| l == LET_THROUGH), "the node:fs hook wrote no line to its data folder");
}

/// The native name of the host's shell tool and its native before-tool event.
fn shell_and_event(target: Target) -> (String, String) {
    let table = hosts::table(target);
    let shell = table.selector(Selector::Shell).unwrap().matches[0].clone();
    (shell, table.event(CanonicalEvent::BeforeTool).unwrap().native.clone())
}

/// The host's envelope for `command` on the shell tool, from a before-tool hook of the index (the
/// hooks of one event share it).
fn envelope(row: &IndexRow, command: &str) -> Vec<u8> {
    let (shell, _) = shell_and_event(row.host);
    let envelope = common::envelope_with(row, json!({ "toolName": shell, "toolInput": { "command": command } }));
    envelope.to_string().into_bytes()
}

/// A command hook of the host on the before-tool event, whose answers the host reads as the others'.
fn decoding_row(manifest: &ArtifactManifest, target: Target) -> IndexRow {
    let rows = manifest.hooks.iter().filter(|r| r.host == target && !r.hooks_module);
    let mut rows: Vec<&IndexRow> = rows.filter(|r| r.event == HookEvent::Config(CanonicalEvent::BeforeTool)).collect();
    rows.sort_by_key(|r| r.name.contains("route"));
    rows.first().map(|r| (*r).clone()).unwrap_or_else(|| panic!("{target}: no command hook on the before-tool event"))
}

/// One command of a host's hook document: its event, matcher, and what it runs on POSIX systems
/// (the command, and an exec form's arguments).
struct Entry {
    native_event: String,
    matcher: Option<String>,
    command: String,
    args: Vec<String>,
}

/// Every command of a host's hook document, read by the host's table (its document format, the
/// entry's command key, the exec form's arguments key), whatever hooks each one runs.
fn read_entries(surface: &HookSurface, document: &Value) -> Vec<Entry> {
    let args_key = match &surface.windows.form {
        WindowsForm::Exec { args_key } => Some(args_key.as_str()),
        _ => None,
    };
    let mut entries = Vec::new();
    for (event, listed) in document.get("hooks").and_then(Value::as_object).into_iter().flatten() {
        for item in listed.as_array().into_iter().flatten() {
            let matcher = item.get("matcher").and_then(Value::as_str).map(str::to_string);
            let (handlers, key): (Vec<&Value>, &str) = match surface.document_format {
                DocumentFormat::Grouped => {
                    (item.get("hooks").and_then(Value::as_array).into_iter().flatten().collect(), "command")
                }
                DocumentFormat::Flat => (vec![item], surface.entry_command_key.as_str()),
            };
            for handler in handlers {
                let Some(command) = handler.get(key).and_then(Value::as_str) else { continue };
                let args = args_key
                    .and_then(|k| handler.get(k))
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
                    .unwrap_or_default();
                entries.push(Entry {
                    native_event: event.clone(),
                    matcher: matcher.clone(),
                    command: command.to_string(),
                    args,
                });
            }
        }
    }
    entries
}

/// The entries of `document` (a plugin's hook document for `target`'s table) that one call of the
/// shell tool runs: the native before-tool event's, whose matcher takes the host's shell tool.
fn matching_entries(target: Target, document: &Path) -> Vec<Entry> {
    let surface = hosts::table(target).hooks.as_ref().unwrap();
    let (shell, event) = shell_and_event(target);
    let document: Value = serde_json::from_slice(&std::fs::read(document).unwrap()).unwrap();
    read_entries(surface, &document)
        .into_iter()
        .filter(|e| e.native_event == event)
        .filter(|e| e.matcher.as_deref().is_none_or(|m| regex::Regex::new(m).unwrap().is_match(&shell)))
        .collect()
}

/// What the host starts for `entries` of the plugin in `root` (its plugin folder): an exec form's
/// program with the root token replaced in its arguments, else the command line through the host's
/// shell, with the root token's variable set to the folder (hosts replace the token in the text; a
/// shell expands the same value).
fn launches(target: Target, entries: &[Entry], root: &Path, stdin: &[u8], env: &[(String, String)]) -> Vec<Launch> {
    let surface = hosts::table(target).hooks.as_ref().unwrap();
    let variable = surface.root_token.trim_start_matches("${").trim_end_matches('}').to_string();
    let root_text = root.display().to_string();
    let mut env = env.to_vec();
    env.push((variable, root_text.clone()));
    entries
        .iter()
        .map(|entry| {
            let (program, args) = match entry.args.is_empty() {
                false => (
                    entry.command.clone(),
                    entry.args.iter().map(|a| a.replace(&surface.root_token, &root_text)).collect(),
                ),
                true => {
                    let shell = match surface.command_shell {
                        CommandShell::Bash => "bash",
                        CommandShell::AnyShell => "sh",
                        CommandShell::InProcess => unreachable!("in-process hosts start no command"),
                    };
                    (shell.to_string(), vec!["-c".to_string(), entry.command.clone()])
                }
            };
            Launch { program, args, env: env.clone(), cwd: root.to_path_buf(), stdin: stdin.to_vec() }
        })
        .collect()
}

/// How a row's commands are started, for the table: how many, in which form, in which order.
fn channel(entries: &[Entry], target: Target, order: Order) -> String {
    let surface = hosts::table(target).hooks.as_ref().unwrap();
    let form = match (entries.iter().all(|e| !e.args.is_empty()), surface.command_shell) {
        (true, _) => "exec node",
        (false, CommandShell::AnyShell) => "sh -c",
        (false, _) => "bash -c",
    };
    let order = match order {
        Order::AllAtOnce => "at once",
        Order::OneAfterAnother => "in turn",
    };
    format!("{} command{}, {form}, {order}", entries.len(), if entries.len() == 1 { "" } else { "s" })
}

fn host_call(artifact: &Path, manifest: &ArtifactManifest, target: Target, order: Order, data: &Path) -> Call {
    let surface = hosts::table(target).hooks.as_ref().unwrap();
    let root = surface.folder.as_ref().map_or(artifact.to_path_buf(), |f| artifact.join(f));
    let document = artifact.join(&manifest.hosts[&target].document);
    let entries = matching_entries(target, &document);
    let row = decoding_row(manifest, target);
    let mut env = Vec::new();
    if matches!(target, Target::Claude | Target::ClaudeMod) {
        // Claude Code gives every hook the plugin's data folder; the others' wrappers find their own.
        env.push(("CLAUDE_PLUGIN_DATA".to_string(), data.join("agent-bundle/plugins/per-call").display().to_string()));
    }
    let in_module = manifest.hooks.iter().filter(|r| r.host == target && r.hooks_module).count();
    let warm = manifest.hooks.iter().filter(|r| r.host == target && r.warm_server).count();
    let mut channel = channel(&entries, target, order);
    if in_module > 0 {
        channel = format!("{in_module} in the hooks module + {channel}");
    }
    if warm > 0 {
        channel = format!("{warm} by the warm server + {channel}");
    }
    let context = hosts::table(target).mapping_for(row.event, false).unwrap().result.additional_context.is_some();
    Call {
        name: target.to_string(),
        channel,
        order,
        through: launches(target, &entries, &root, &envelope(&row, LET_THROUGH), &env),
        refused: launches(target, &entries, &root, &envelope(&row, REFUSED), &env),
        expect_context: context && in_module == 0 && warm == 0,
        expect_deny: manifest.hooks.iter().any(|r| r.host == target && r.fail_closed && !r.hooks_module),
        decode: Some(row),
        host: Some(target),
        non_guard_commands: manifest
            .hooks
            .iter()
            .filter(|r| r.host == target && !r.hooks_module && !r.warm_server && !r.fail_closed)
            .count(),
        called_in: in_module + warm,
    }
}

/// The hand-written plugin: a Claude Code plugin of eight node scripts, one per hook, each reading
/// its envelope and answering as Claude Code expects.
fn write_hand_written(hand: &Path) {
    let answer = |fields: &str| {
        format!(
            "process.stdout.write(JSON.stringify({{ hookSpecificOutput: {{ hookEventName: 'PreToolUse', {fields} }} }}));"
        )
    };
    let read = "import { readFileSync } from 'node:fs';\nconst input = JSON.parse(readFileSync(0, 'utf8'));\nconst command = input.tool_input?.command ?? '';\n";
    let scripts = [
        (
            "guard",
            format!(
                "{read}if (/\\brm\\s+-rf\\b/.test(command)) {{\n  {}\n}}\n",
                answer(
                    "permissionDecision: 'deny', permissionDecisionReason: '`rm -rf` is not run in this repository.'"
                )
            ),
        ),
        ("log-command", format!("{read}console.error(`per-call: ${{input.tool_name}} ${{command}}`);\n")),
        (
            "log-session",
            format!(
                "{read}console.error(`per-call: session ${{input.session_id ?? '?'}} in ${{input.cwd ?? '?'}}`);\n"
            ),
        ),
        (
            "log-timing",
            format!(
                "{read}console.error(`per-call: ${{new Date().toISOString()}} claude ${{input.hook_event_name}}`);\n"
            ),
        ),
        ("context-branch", format!("{read}{}\n", answer(&format!("additionalContext: '{}'", CONTEXTS[0])))),
        (
            "context-policy",
            format!(
                "{read}{}\n",
                answer("additionalContext: `per-call: run the tests before committing (${command.split(' ')[0]}).`")
            ),
        ),
        (
            "route",
            format!(
                "{read}if (/\\bgit\\s+push\\s+(-f|--force)\\b/.test(command)) {{\n  {}\n}}\n",
                answer("permissionDecision: 'deny', permissionDecisionReason: 'Use --force-with-lease.'")
            ),
        ),
        (
            "record-call",
            format!(
                "{read}import {{ appendFileSync, mkdirSync }} from 'node:fs';\nimport {{ join }} from 'node:path';\n\
                 const dir = process.env.CLAUDE_PLUGIN_DATA;\nmkdirSync(dir, {{ recursive: true }});\n\
                 appendFileSync(join(dir, 'hand-written.log'), `${{command}}\\n`);\n"
            ),
        ),
    ];
    let mut groups = Vec::new();
    for (name, script) in &scripts {
        common::write_file(hand, &format!("scripts/{name}.mjs"), script);
        let mut hook =
            json!({ "type": "command", "command": format!("node \"${{CLAUDE_PLUGIN_ROOT}}/scripts/{name}.mjs\"") });
        if *name == "guard" {
            hook["onFailure"] = json!("block");
        }
        groups.push(json!({ "matcher": "Bash", "hooks": [hook] }));
    }
    let document = json!({ "hooks": { "PreToolUse": groups } });
    common::write_file(hand, "hooks/hooks.json", &serde_json::to_string_pretty(&document).unwrap());
    common::write_file(hand, ".claude-plugin/plugin.json", r#"{"name":"per-call-by-hand","version":"1.0.0"}"#);
    common::write_file(hand, "bare.mjs", "import { readFileSync } from 'node:fs';\nreadFileSync(0);\n");
}

fn hand_written_call(hand: &Path, manifest: &ArtifactManifest, data: &Path) -> Call {
    let entries = matching_entries(Target::Claude, &hand.join("hooks/hooks.json"));
    let row = decoding_row(manifest, Target::Claude);
    let env = vec![("CLAUDE_PLUGIN_DATA".to_string(), data.join("by-hand").display().to_string())];
    Call {
        name: "by hand".to_string(),
        channel: format!("{}, a node script each", channel(&entries, Target::Claude, Order::AllAtOnce)),
        order: Order::AllAtOnce,
        through: launches(Target::Claude, &entries, hand, &envelope(&row, LET_THROUGH), &env),
        refused: launches(Target::Claude, &entries, hand, &envelope(&row, REFUSED), &env),
        expect_context: true,
        expect_deny: true,
        decode: Some(row),
        host: None,
        non_guard_commands: 0,
        called_in: 0,
    }
}

fn floors(hand: &Path, manifest: &ArtifactManifest) -> Vec<Call> {
    let launch = |program: &str, args: &[&str], stdin: Vec<u8>| Launch {
        program: program.to_string(),
        args: args.iter().map(|a| a.to_string()).collect(),
        env: Vec::new(),
        cwd: hand.to_path_buf(),
        stdin,
    };
    let stdin = envelope(&decoding_row(manifest, Target::Claude), LET_THROUGH);
    let bare = hand.join("bare.mjs").display().to_string();
    let floor = |name: &str, channel: &str, launch: Launch| Call {
        name: name.to_string(),
        channel: channel.to_string(),
        order: Order::AllAtOnce,
        through: vec![launch.clone()],
        refused: Vec::new(),
        decode: None,
        expect_context: false,
        expect_deny: false,
        host: None,
        non_guard_commands: 0,
        called_in: 0,
    };
    vec![
        floor("bash start", "bash -c 'exit 0'", launch("bash", &["-c", "exit 0"], Vec::new())),
        floor("node start", "node on a bare .mjs reading stdin", launch("node", &[&bare], stdin)),
    ]
}

/// The children's user + system CPU so far, in ms.
fn children_cpu() -> f64 {
    // SAFETY: getrusage fills the struct it is given; the struct is plain data.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1000.0 + t.tv_usec as f64 / 1000.0;
    ms(usage.ru_utime) + ms(usage.ru_stime)
}

/// Runs `launches` as `call`'s host does, with shims first on PATH when counting (the shims' folder
/// and the file they append to): the outputs, the wall ms and the CPU ms of the call.
fn run(call: &Call, launches: &[Launch], counting: Option<(&Path, &Path)>, data: &Path) -> (Vec<Output>, f64, f64) {
    let path = std::env::var("PATH").unwrap_or_default();
    let command = |launch: &Launch| {
        let mut command = match counting {
            Some((shims, _)) if shims.join(&launch.program).is_file() => Command::new(shims.join(&launch.program)),
            _ => Command::new(&launch.program),
        };
        command.args(&launch.args).env_clear().current_dir(&launch.cwd);
        command.env("HOME", data.join("home")).env("XDG_DATA_HOME", data);
        match counting {
            Some((shims, counter)) => {
                command.env("PATH", format!("{}:{path}", shims.display())).env("AGENT_BUNDLE_BENCH_COUNT", counter)
            }
            None => command.env("PATH", &path),
        };
        command.envs(launch.env.iter().map(|(k, v)| (k, v)));
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        command
    };
    let start = |launch: &Launch| {
        let mut child =
            command(launch).spawn().unwrap_or_else(|e| panic!("{}: {} cannot start: {e}", call.name, launch.program));
        let mut stdin = child.stdin.take().unwrap();
        // A program may exit before reading it all (the floors): its end of the pipe is then gone.
        let _ = stdin.write_all(&launch.stdin);
        drop(stdin);
        child
    };
    let finish = |child: std::process::Child| {
        let output = child.wait_with_output().unwrap();
        Output {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    };
    let cpu = children_cpu();
    let started = Instant::now();
    let outputs: Vec<Output> = match call.order {
        Order::AllAtOnce => {
            let children: Vec<_> = launches.iter().map(start).collect();
            children.into_iter().map(finish).collect()
        }
        Order::OneAfterAnother => launches.iter().map(|l| finish(start(l))).collect(),
    };
    let wall = started.elapsed().as_secs_f64() * 1000.0;
    (outputs, wall, children_cpu() - cpu)
}

/// Fails when a row's answers are not what its hooks answer: for the call refused, a denial (or the
/// host's blocking exit); for the call let through, every command's success, no denial, and the
/// contexts where the host takes context on the event.
fn check(call: &Call, outputs: &[Output], refused: bool) {
    let show = || {
        outputs
            .iter()
            .map(|o| format!("exit {:?}: {} {}", o.code, o.stdout.trim(), o.stderr.trim()))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let Some(row) = &call.decode else {
        assert!(outputs.iter().all(|o| o.code == Some(0)), "{}: {}", call.name, show());
        return;
    };
    let answers: Vec<Value> = outputs
        .iter()
        .map(|o| agent_bundle::tools::simulate::decode_answer(row, o.stdout.trim()))
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{}: {e}\n{}", call.name, show()));
    let denied = answers.iter().any(|a| a["outcome"] == "deny") || outputs.iter().any(|o| o.code == Some(2));
    if refused && call.expect_deny {
        assert!(denied, "{}: `{REFUSED}` was not refused:\n{}", call.name, show());
        return;
    }
    if refused {
        assert!(outputs.iter().all(|o| o.code == Some(0)), "{}: `{REFUSED}`:\n{}", call.name, show());
        return;
    }
    assert!(!denied && outputs.iter().all(|o| o.code == Some(0)), "{}: `{LET_THROUGH}`:\n{}", call.name, show());
    let contexts: Vec<&str> = answers.iter().filter_map(|a| a["additionalContext"].as_str()).collect();
    if call.expect_context {
        for wanted in CONTEXTS {
            assert!(contexts.iter().any(|c| c.contains(wanted)), "{}: no context `{wanted}`:\n{}", call.name, show());
        }
    }
}

/// Shims named `node`, `sh` and `bash` that append their pid and name to `$AGENT_BUNDLE_BENCH_COUNT`
/// and exec the real program (found on PATH now, before the shims are on it).
fn write_shims(shims: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(shims).unwrap();
    for name in ["node", "sh", "bash"] {
        let real = Command::new("sh").arg("-c").arg(format!("command -v {name}")).output().unwrap();
        let real = String::from_utf8_lossy(&real.stdout).trim().to_string();
        assert!(!real.is_empty(), "`{name}` is not on PATH");
        let shim = shims.join(name);
        std::fs::write(
            &shim,
            format!("#!/bin/sh\necho \"$$ {name}\" >> \"$AGENT_BUNDLE_BENCH_COUNT\"\nexec {real} \"$@\"\n"),
        )
        .unwrap();
        std::fs::set_permissions(&shim, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// Loads OpenCode's entry module once in one node process, checks its answers (a throw refuses),
/// and times `calls` calls of `tool.execute.before`; prints the first call's ms, then the medians of
/// wall and CPU ms per call.
const OPENCODE: &str = r#"
import { pathToFileURL } from 'node:url';
const [plugin, calls, project] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
const { AgentBundle } = await import(pathToFileURL(plugin).href);
const hooks = await AgentBundle({ directory: project });
let n = 0;
const call = async (command) => {
  const output = { args: { command } };
  const [wall, cpu] = [performance.now(), process.cpuUsage()];
  let refused;
  try {
    await hooks['tool.execute.before']({ tool: 'bash', sessionID: 's', callID: `c${n++}` }, output);
  } catch (error) {
    refused = error;
  }
  const spent = process.cpuUsage(cpu);
  return { wall: performance.now() - wall, cpu: (spent.user + spent.system) / 1000, refused };
};
const first = await call('git status');
if (first.refused) throw new Error(`git status refused: ${first.refused}`);
if (!(await call('rm -rf build')).refused) throw new Error('rm -rf build went through');
const [walls, cpus] = [[], []];
for (let i = 0; i < calls; i++) {
  const { wall, cpu, refused } = await call('git status');
  if (refused) throw new Error(`git status refused: ${refused}`);
  walls.push(wall);
  cpus.push(cpu);
}
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
process.stdout.write(`${first.wall} ${median(walls)} ${median(cpus)}\n`);
"#;

/// Drives the plugin's warm server as Claude Code's `mcp_tool` entries do: the server started with
/// node, then per call every entry's `hook` tool called at once with the fields the entry interpolates
/// from the call's envelope. Prints the first call's wall ms, the median wall ms per call, and the
/// server's CPU ms per call (its whole process, every worker thread included, from /proc).
const WARM: &str = r#"
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
const [entry, calls, inputs] = [process.argv[2], Number(process.argv[3]), JSON.parse(readFileSync(process.argv[4], 'utf8'))];
const server = spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'inherit'] });
let buffered = '';
const waiting = new Map();
server.stdout.on('data', (chunk) => {
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf('\n')) !== -1) {
    const message = JSON.parse(buffered.slice(0, newline));
    buffered = buffered.slice(newline + 1);
    waiting.get(message.id)?.(message);
  }
});
let id = 0;
const request = (method, params) => new Promise((resolve) => {
  waiting.set(++id, resolve);
  server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
});
const cpu = () => {
  const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};
await request('initialize', { protocolVersion: '2025-06-18' });
const call = async () => {
  const started = performance.now();
  const answers = await Promise.all(inputs.map((args) => request('tools/call', { name: 'hook', arguments: args })));
  for (const answer of answers) if (answer.result?.isError !== false) throw new Error(JSON.stringify(answer));
  return performance.now() - started;
};
const first = await call();
for (let i = 0; i < 20; i++) await call();
const before = cpu();
const walls = [];
for (let i = 0; i < calls; i++) walls.push(await call());
const spent = (cpu() - before) / calls;
walls.sort((a, b) => a - b);
process.stdout.write(`${first} ${walls[Math.floor(walls.length / 2)]} ${spent}\n`);
server.kill();
"#;

fn warm_server_in_node(artifact: &Path, work: &Path, calls: usize, data: &Path) -> InProcess {
    let script = work.join("warm-calls.mjs");
    std::fs::write(&script, WARM).unwrap();
    let manifest = agent_bundle::artifact::read_verified(&common::utf8(artifact), &RealDisk).unwrap();
    let row = manifest.hooks.iter().find(|r| r.warm_server).unwrap().clone();
    let envelope: Value = serde_json::from_slice(&envelope(&row, LET_THROUGH)).unwrap();
    let document: Value = serde_json::from_slice(&std::fs::read(artifact.join("hooks/hooks.json")).unwrap()).unwrap();
    let mut inputs = Vec::new();
    for groups in document["hooks"].as_object().unwrap().values() {
        for handler in groups.as_array().unwrap().iter().flat_map(|g| g["hooks"].as_array().unwrap()) {
            if handler["type"] != "mcp_tool" {
                continue;
            }
            inputs.push(common::claude_interpolated(&handler["input"], &envelope));
        }
    }
    let inputs_file = work.join("warm-inputs.json");
    std::fs::write(&inputs_file, Value::Array(inputs).to_string()).unwrap();
    let entry = artifact.join("mcp/per-call-runtime.mjs");
    let output = Command::new("node")
        .arg(&script)
        .arg(&entry)
        .arg(calls.to_string())
        .arg(&inputs_file)
        .env("CLAUDE_PLUGIN_DATA", data.join("agent-bundle/plugins/per-call"))
        .env("CLAUDE_PLUGIN_ROOT", artifact)
        .output()
        .unwrap();
    assert!(output.status.success(), "warm server: {}", String::from_utf8_lossy(&output.stderr));
    let figures: Vec<f64> =
        String::from_utf8_lossy(&output.stdout).split_whitespace().map(|f| f.parse().unwrap()).collect();
    InProcess { first: figures[0], wall: figures[1], cpu: figures[2], calls }
}

fn opencode_in_process(artifact: &Path, work: &Path, calls: usize, data: &Path) -> InProcess {
    let script = work.join("opencode-calls.mjs");
    std::fs::write(&script, OPENCODE).unwrap();
    let module = hosts::table(Target::Opencode).hooks.as_ref().unwrap().entry_module.clone().unwrap();
    let output = Command::new("node")
        .arg(&script)
        .arg(artifact.join(module))
        .arg(calls.to_string())
        .arg(work)
        .env("XDG_DATA_HOME", data)
        .output()
        .unwrap();
    assert!(output.status.success(), "opencode: {}", String::from_utf8_lossy(&output.stderr));
    let figures: Vec<f64> =
        String::from_utf8_lossy(&output.stdout).split_whitespace().map(|f| f.parse().unwrap()).collect();
    InProcess { first: figures[0], wall: figures[1], cpu: figures[2], calls }
}

/// A `claude plugin test` test that checks the hooks module's answers and times `calls` calls of
/// `$.tool.call` through it (the module's hooks only: the engine's tests run no command hook); prints
/// the first call's ms and the median ms per call.
fn timing_test(calls: usize) -> String {
    format!(
        "import {{ test }} from 'claude-code/testing'\n\
         test('timing', async ($, on) => {{\n\
           on('session.id', () => ({{ value: 'bench' }}))\n\
           on('session.cwd', () => ({{ value: '/w' }}))\n\
           on('session.info', () => ({{ value: {{ transcriptPath: '/t.jsonl' }} }}))\n\
           on('ui.log', () => ({{ value: undefined }}))\n\
           on('tool.call', () => ({{ result: {{ stdout: '' }} }}))\n\
           const call = async (command) => {{ const t = performance.now(); const r = await $.tool.call({{ tool: 'Bash', command }}); return [performance.now() - t, r] }}\n\
           const [first, r] = await call('{LET_THROUGH}')\n\
           for (const wanted of {contexts}) if (!(r.context ?? []).includes(wanted)) throw new Error('no context: ' + JSON.stringify(r))\n\
           const [, no] = await call('{REFUSED}')\n\
           if (no.deny === undefined) throw new Error('not refused: ' + JSON.stringify(no))\n\
           const times = []\n\
           for (let i = 0; i < {calls}; i++) times.push((await call('{LET_THROUGH}'))[0])\n\
           times.sort((a, b) => a - b)\n\
           console.log(`TIMING ${{first}} ${{times.length ? times[Math.floor(times.length / 2)] : 0}}`)\n\
         }})\n",
        contexts = serde_json::to_string(&CONTEXTS).unwrap()
    )
}

/// The hooks module's part of a claude-mod call, in Claude Code's own engine: the median ms per
/// call, and the CPU per call (the engine's CPU over `calls` calls less its CPU over none, the same
/// first calls in both). None, with a line saying why, when Claude Code is not installed.
fn claude_mod_in_engine(artifact: &Path, calls: usize, data: &Path) -> Result<InProcess, String> {
    let hosts = std::env::var_os("AGENT_BUNDLE_HOSTS_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/agent-bundle-hosts")));
    let claude =
        hosts.map(|d| d.join("node_modules/@anthropic-ai/claude-code-linux-x64/claude")).filter(|c| c.is_file());
    let Some(claude) = claude else {
        return Err("Claude Code 2.1.332 is not installed (scripts/host-e2e.sh installs it): the hooks module's \
                    part is not timed, the row shows the command part alone"
            .to_string());
    };
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let time = |calls: usize| -> (f64, f64, f64) {
        let plugin = work.path().join(format!("plugin-{calls}"));
        common::copy_tree(artifact, &plugin);
        common::write_file(&plugin, "tests/timing.test.ts", &timing_test(calls));
        let cpu = children_cpu();
        let output = Command::new(&claude)
            .env_clear()
            .env("HOME", &home)
            .env("XDG_DATA_HOME", data)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .args(["plugin", "test"])
            .arg(&plugin)
            .output()
            .unwrap();
        let cpu = children_cpu() - cpu;
        let text = String::from_utf8_lossy(&output.stdout).to_string() + &String::from_utf8_lossy(&output.stderr);
        let line = text.lines().find_map(|l| l.split_once("TIMING ").map(|(_, f)| f.to_string()));
        let line = line.unwrap_or_else(|| panic!("claude-mod: claude plugin test printed no timing: {text}"));
        let figures: Vec<f64> = line.split_whitespace().map(|f| f.parse().unwrap()).collect();
        (figures[0], figures[1], cpu)
    };
    let (_, _, idle) = time(0);
    let (first, wall, busy) = time(calls);
    Ok(InProcess { cpu: (busy - idle) / calls as f64, wall, first, calls })
}

/// The machine's load average over 1, 5 and 15 minutes (other work on the cores stretches wall times).
fn load_average() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

fn report(
    calls: &[Call],
    figures: &[Figures],
    hooks_module: Result<InProcess, String>,
    warm: &InProcess,
    opencode: &InProcess,
    manifest: &ArtifactManifest,
) {
    struct Line {
        name: String,
        channel: String,
        processes: usize,
        programs: usize,
        cpu: f64,
        wall: f64,
        host: Option<Target>,
        /// For a row whose host calls hooks in: its non-guard hooks left as commands, and the CPU
        /// of the part called in.
        call_in: Option<(usize, f64)>,
    }
    let mut lines: Vec<Line> = calls
        .iter()
        .zip(figures)
        .map(|(call, f)| Line {
            name: call.name.clone(),
            channel: call.channel.clone(),
            processes: f.processes,
            programs: f.programs,
            cpu: median(&f.cpu),
            wall: median(&f.wall),
            host: call.host,
            call_in: (call.called_in > 0).then_some((call.non_guard_commands, 0.0)),
        })
        .collect();
    let mut notes = Vec::new();
    if let Some(line) = lines.iter_mut().find(|l| l.host == Some(Target::ClaudeMod)) {
        match &hooks_module {
            Ok(module) => {
                // Claude Code's order of its module and its command hooks is not measured: added.
                line.cpu += module.cpu;
                line.wall += module.wall;
                if let Some((_, part)) = &mut line.call_in {
                    *part = module.cpu;
                }
                notes.push(format!(
                    "claude-mod: the hooks module's part, in Claude Code's engine: {:.3} ms CPU and {:.3} ms wall a call \
                     (median of {} calls; the first {:.1} ms), added to its commands'",
                    module.cpu, module.wall, module.calls, module.first
                ));
            }
            Err(why) => {
                line.channel.push_str(" (module not timed)");
                notes.push(format!("claude-mod: {why}"));
            }
        }
    }
    if let Some(line) = lines.iter_mut().find(|l| l.name == "claude-warm") {
        // Claude Code runs the server's entries beside the command: their time is added.
        line.cpu += warm.cpu;
        line.wall += warm.wall;
        if let Some((_, part)) = &mut line.call_in {
            *part = warm.cpu;
        }
        notes.push(format!(
            "claude-warm: the warm server's part, in its own process (worker threads included): {:.3} ms CPU and \
             {:.3} ms wall a call (median of {} calls; the first, which starts the workers, {:.1} ms), added to its command's",
            warm.cpu, warm.wall, warm.calls, warm.first
        ));
    }
    let opencode_hooks = manifest.hooks.iter().filter(|r| r.host == Target::Opencode).count();
    let at = lines.iter().position(|l| l.host.is_none()).unwrap_or(lines.len());
    lines.insert(
        at,
        Line {
            name: "opencode".to_string(),
            channel: format!("in process: {opencode_hooks} hooks, opencode/plugin.mjs"),
            processes: 0,
            programs: 0,
            cpu: opencode.cpu,
            wall: opencode.wall,
            host: Some(Target::Opencode),
            call_in: Some((0, opencode.cpu)),
        },
    );
    notes.push(format!(
        "opencode: median of {} calls in one node process (the first, which imports the hooks, {:.1} ms)",
        opencode.calls, opencode.first
    ));
    let node = lines.iter().find(|l| l.name == "node start").unwrap().cpu;
    let hand = lines.iter().find(|l| l.name == "by hand").unwrap().cpu;
    let hand_wall = lines.iter().find(|l| l.name == "by hand").unwrap().wall;
    println!();
    println!(
        "one shell call, its before-tool hooks to the last answer (medians; ratios of CPU, and of wall to by hand)"
    );
    println!(
        "{:<11} {:<56} {:>5} {:>5} {:>9} {:>9} {:>8} {:>8} {:>9}",
        "row", "channel", "procs", "progs", "CPU ms", "wall ms", "CPU/node", "CPU/hand", "wall/hand"
    );
    for line in &lines {
        println!(
            "{:<11} {:<56} {:>5} {:>5} {:>9.2} {:>9.2} {:>8.3} {:>8.3} {:>9.3}",
            line.name,
            line.channel,
            line.processes,
            line.programs,
            line.cpu,
            line.wall,
            line.cpu / node,
            line.cpu / hand,
            line.wall / hand_wall
        );
    }
    for note in notes {
        println!("{note}");
    }
    println!();
    println!("targets (issue 46)");
    let command_hosts: Vec<&Line> = lines.iter().filter(|l| l.host.is_some_and(|h| h != Target::Opencode)).collect();
    let over: Vec<String> =
        command_hosts.iter().filter(|l| l.processes > 1).map(|l| format!("{} {}", l.name, l.processes)).collect();
    println!("  at most one process per call on every command host: {}", verdict(&over));
    // The rows whose host calls hooks in (its hooks module, the warm server, OpenCode's process): a
    // non-guard hook left a command there starts a process; the guard's command may stay.
    let call_in: Vec<(&Line, usize, f64)> =
        lines.iter().filter_map(|l| l.call_in.map(|(commands, cpu)| (l, commands, cpu))).collect();
    let over: Vec<String> = call_in
        .iter()
        .filter(|(_, commands, _)| *commands > 0)
        .map(|(l, commands, _)| format!("{}: {commands} non-guard hook(s) a command", l.name))
        .collect();
    println!("  no process for the non-guard hooks where the host can call in: {}", verdict(&over));
    let over: Vec<String> = command_hosts
        .iter()
        .filter(|l| l.host != Some(Target::ClaudeMod) && l.cpu > 1.2 * node)
        .map(|l| format!("{} ×{:.2}", l.name, l.cpu / node))
        .collect();
    println!("  CPU per call at most 1.2× one node start on command hosts: {}", verdict(&over));
    let over: Vec<String> =
        call_in.iter().filter(|(_, _, cpu)| *cpu > 2.0).map(|(l, _, cpu)| format!("{} {cpu:.2} ms", l.name)).collect();
    println!("  CPU per call within 2 ms for the hooks called in: {}", verdict(&over));
}

fn verdict(over: &[String]) -> String {
    match over.is_empty() {
        true => "met".to_string(),
        false => format!("not met ({})", over.join(", ")),
    }
}
