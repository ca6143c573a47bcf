//! The real-host suite: emitted plugins loaded into the real Claude Code and Codex programs, running
//! offline against a mock model server on 127.0.0.1, and checked for what the hosts actually did.
//! Run it with `scripts/host-e2e.sh` (it installs the pinned hosts and gives the suite a private
//! network namespace); it prints one line per check and a closing `N passed, N failed` line.
//!
//! Usage: host_e2e [FILTER]   (runs only the checks whose name contains FILTER)
//!        host_e2e --install-fixtures   (installs the npm fixtures some bundles import; needs the
//!                                       registry, so the script runs it outside the namespace)

mod amp;
#[allow(dead_code, reason = "shared with tests/it, which uses all of it; this suite uses a part")]
#[path = "../it/common/mod.rs"]
mod common;
mod hosts;
mod mock;
mod mod_tests;
mod windows;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use agent_bundle::driver::{BuildOptions, build};
use agent_bundle::io::RealDisk;
use camino::Utf8PathBuf;
use hosts::{
    ClaudeOptions, CopilotInstall, GEMINI, HostRun, InProcessPlacement, Placement, Programs, QWEN, run_bounded,
    run_claude, run_cline, run_codex, run_copilot, run_droid, run_extension_host, run_kilo, run_opencode, run_pi,
};
use mock::{Call, FINAL_TEXT};

/// Each host run's wall-clock limit.
const RUN_LIMIT: Duration = Duration::from_secs(120);
const MARKER: &str = "marker.txt";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Host {
    Claude,
    /// Claude Code loading the artifact's `claude-mod/` folder: its hooks module beside its command hooks.
    ClaudeMod,
    Codex,
    Copilot,
    Gemini,
    Qwen,
    Opencode,
    /// Factory Droid: its own `droid/` folder where the bundle targets it, else the Claude Code plugin
    /// it also installs.
    Droid,
    /// Pi, which runs the hooks in its own process through the artifact's `pi/` extension.
    Pi,
    /// Kilo CLI, an OpenCode fork, which runs the artifact's `opencode/` plugin as OpenCode does.
    Kilo,
    /// Cline CLI, which runs the artifact's `cline/` hook files: one process per event runs its hooks.
    Cline,
}

impl Host {
    fn name(self) -> &'static str {
        match self {
            Host::Claude => "claude",
            Host::ClaudeMod => "claude-mod",
            Host::Codex => "codex",
            Host::Copilot => "copilot",
            Host::Gemini => "gemini",
            Host::Qwen => "qwen",
            Host::Opencode => "opencode",
            Host::Droid => "droid",
            Host::Pi => "pi",
            Host::Kilo => "kilo",
            Host::Cline => "cline",
        }
    }
}

struct Scenario {
    name: &'static str,
    /// The bundle under `testdata/` (its plugin is named `e2e-<last segment>`).
    bundle: &'static str,
    hosts: &'static [Host],
    calls: fn() -> Vec<Call>,
    /// Claude's `--allowedTools` (what lets a tool run without a prompt in `-p` mode).
    claude_allowed_tools: Option<&'static str>,
    /// The session's prompt on a host, where not the harness's own (a command invoked).
    prompt: Option<fn(Host) -> String>,
    check: fn(Host, &HostRun) -> Result<(), String>,
}

fn shell_marker() -> Vec<Call> {
    vec![Call::Shell(format!("echo hi > {MARKER}"))]
}

fn mcp_lookup() -> Vec<Call> {
    vec![Call::Mcp { server: "docs".into(), tool: "lookup".into(), arguments: serde_json::json!({ "word": "hello" }) }]
}

/// The name the host's table says it gives tool `lookup` of the e2e plugin's server `docs`.
fn mcp_tool_name(host: Host) -> String {
    let target = agent_bundle::vocabulary::target::Target::from_name(host.name()).expect("a host is a target");
    let surface = agent_bundle::hosts::table(target).hooks.as_ref().expect("a host with hooks");
    surface.plugin_mcp.supported().map(|m| m.tool_name("e2e-mcp-tool", "docs", "lookup")).unwrap_or_default()
}

/// What the parts of testdata/e2e/parts say where a host hands them to the model.
const PART_MARKS: &[(agent_bundle::vocabulary::part::PartKind, &str)] = &[
    (agent_bundle::vocabulary::part::PartKind::Skills, "E2E_SKILL_MARK"),
    (agent_bundle::vocabulary::part::PartKind::Commands, "E2E_COMMAND_MARK"),
    (agent_bundle::vocabulary::part::PartKind::Agents, "E2E_AGENT_MARK"),
    (agent_bundle::vocabulary::part::PartKind::ContextFile, "E2E_CONTEXT_MARK"),
];

/// How a user invokes the command `e2e-hello` of the plugin `e2e-parts` on `host`, from its table.
fn invoked_command(host: Host) -> String {
    let target = agent_bundle::vocabulary::target::Target::from_name(host.name()).expect("a host is a target");
    let parts = &agent_bundle::hosts::table(target).hooks.as_ref().expect("a host with hooks").plugin_parts;
    let form = parts.commands.supported().ok().and_then(|place| place.invoked_as.clone()).unwrap_or_default();
    form.replace("{plugin}", "e2e-parts").replace("{name}", "e2e-hello")
}

fn exists(run: &HostRun, file: &str) -> bool {
    run.work.join(file).is_file()
}

fn ensure(condition: bool, message: impl Into<String>) -> Result<(), String> {
    if condition { Ok(()) } else { Err(message.into()) }
}

/// Claude's stream says the PreToolUse hook ran (so a refused call was not a hook that never fired).
fn claude_ran_pre_tool_use(run: &HostRun) -> Result<(), String> {
    ensure(run.stdout.contains(r#""hook_event":"PreToolUse""#), "the PreToolUse hook did not run")
}

/// A denial as the host delivers it: the model reads the reason; Cline CLI, where a hook cancels a
/// call, ends the run instead (its table says so: a denial is delivered, its reason is not), and the
/// reason is in its log (which `run_cline` appends to the run's stderr), never in a request.
fn denied_with(host: Host, run: &HostRun, reason: &str) -> Result<(), String> {
    if host == Host::Cline {
        ensure(run.stdout.contains(r#""finishReason":"aborted""#), "Cline did not end the run")?;
        ensure(run.stderr.contains(reason), format!("Cline's log does not carry the reason {reason:?}"))?;
        return ensure(!run.any_request_contains(reason), "the reason reached the model: update Cline's table");
    }
    ensure(run.any_request_contains(reason), format!("no model request carried the reason {reason:?}"))
}

fn finished(run: &HostRun) -> Result<(), String> {
    ensure(!run.timed_out, "the host did not finish in time")?;
    ensure(run.exit_code == Some(0), format!("the host exited {:?}", run.exit_code))
}

fn scenarios() -> Vec<Scenario> {
    const BOTH: &[Host] = &[Host::Claude, Host::Codex];
    const ALL: &[Host] = &[Host::Claude, Host::Codex, Host::Copilot, Host::Gemini, Host::Qwen, Host::Droid];
    // The command hosts and Pi, whose extension carries what they take in their documents (a stop
    // that keeps the agent going, a route).
    const ALL_AND_PI: &[Host] =
        &[Host::Claude, Host::Codex, Host::Copilot, Host::Gemini, Host::Qwen, Host::Droid, Host::Pi];
    // The command hosts, and OpenCode, Kilo CLI and Pi, which run the hooks in their own process; and
    // Claude Code's hooks module, where the bundle targets it.
    const EVERY: &[Host] = &[
        Host::Claude,
        Host::ClaudeMod,
        Host::Codex,
        Host::Copilot,
        Host::Gemini,
        Host::Qwen,
        Host::Droid,
        Host::Opencode,
        Host::Kilo,
        Host::Pi,
    ];
    // Every host, Cline CLI too (which takes no context at a session's start and ends the run at a
    // denial).
    const EVERY_AND_CLINE: &[Host] = &[
        Host::Claude,
        Host::ClaudeMod,
        Host::Codex,
        Host::Copilot,
        Host::Gemini,
        Host::Qwen,
        Host::Droid,
        Host::Opencode,
        Host::Kilo,
        Host::Pi,
        Host::Cline,
    ];
    // Every host's own plugin (not Claude Code's hooks module).
    const EVERY_PLUGIN: &[Host] = &[
        Host::Claude,
        Host::Codex,
        Host::Copilot,
        Host::Gemini,
        Host::Qwen,
        Host::Droid,
        Host::Opencode,
        Host::Kilo,
        Host::Pi,
    ];
    // Qwen Code 0.24.4 runs the original call when a hook answers updatedInput.
    const REWRITING: &[Host] = &[
        Host::Claude,
        Host::ClaudeMod,
        Host::Codex,
        Host::Copilot,
        Host::Gemini,
        Host::Droid,
        Host::Opencode,
        Host::Kilo,
        Host::Pi,
        Host::Cline,
    ];
    // The hosts where a failing hook follows its own failure policy: open, unless it is failClosed.
    const POLICY_KEEPING: &[Host] =
        &[Host::Claude, Host::ClaudeMod, Host::Codex, Host::Droid, Host::Opencode, Host::Kilo, Host::Pi, Host::Cline];
    // The hosts that filter SessionStart entries by their source matcher.
    const SOURCE_MATCHING: &[Host] = &[Host::Claude, Host::Codex, Host::Droid, Host::Pi];
    // Gemini CLI does not wait for SessionEnd hooks (it exits while they run).
    const AWAITING_SESSION_END: &[Host] = &[Host::Claude, Host::Codex, Host::Copilot, Host::Droid, Host::Pi];
    vec![
        Scenario {
            name: "beforeTool deny blocks the shell command and the model gets the reason",
            bundle: "e2e/deny-shell",
            hosts: EVERY_AND_CLINE,
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |host, run| {
                finished(run)?;
                ensure(!exists(run, MARKER), "the denied command ran")?;
                denied_with(host, run, "E2E_DENY_REASON")
            },
        },
        Scenario {
            name: "beforeTool deny from a handler that writes to stdout by every path (fd 1, /dev/stdout, a worker) still blocks",
            bundle: "e2e/deny-noisy-shell",
            hosts: ALL,
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(!exists(run, MARKER), "the denied command ran")?;
                ensure(run.any_request_contains("E2E_NOISY_DENY"), "no model request carried the denial reason")
            },
        },
        Scenario {
            name: "beforeTool deny decided by bundled npm packages (zod, lodash-es) blocks the command",
            bundle: "npm/bundles/npm-guard",
            hosts: BOTH,
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(!exists(run, MARKER), "the denied command ran")?;
                ensure(
                    run.any_request_contains("E2E_NPM_DENY blocked-by-bundled-packages"),
                    "no model request carried the reason the bundled packages computed",
                )
            },
        },
        Scenario {
            name: "beforeTool continue lets the command run",
            bundle: "e2e/continue-shell",
            hosts: EVERY_AND_CLINE,
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(exists(run, MARKER), "the command did not run")
            },
        },
        Scenario {
            name: "beforeTool continue grants no permission (no allow rule: the command stays refused)",
            bundle: "e2e/continue-shell",
            hosts: &[Host::Claude],
            calls: shell_marker,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                claude_ran_pre_tool_use(run)?;
                ensure(!exists(run, MARKER), "the hook auto-approved a call the host would have refused")?;
                ensure(run.stdout.contains(r#""permission_denials":[{"#), "Claude reported no permission denial")
            },
        },
        Scenario {
            name: "beforeTool updatedInput rewrites the command that runs",
            bundle: "e2e/rewrite-shell",
            hosts: REWRITING,
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(exists(run, "rewritten.txt"), "the rewritten command did not run")?;
                ensure(!exists(run, MARKER), "the original command ran")
            },
        },
        Scenario {
            name: "beforeTool updatedInput, which the host does not apply, blocks the call instead of running the original",
            bundle: "e2e/rewrite-shell",
            hosts: &[Host::Qwen],
            calls: shell_marker,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(!exists(run, MARKER), "the original command ran")?;
                ensure(!exists(run, "rewritten.txt"), "a rewrite ran where the table says it is not applied")?;
                ensure(
                    run.any_request_contains("updatedInput"),
                    "the model did not get the reason the call was blocked",
                )
            },
        },
        Scenario {
            name: "beforeTool updatedInput grants no permission (no allow rule: nothing runs)",
            bundle: "e2e/rewrite-shell",
            hosts: &[Host::Claude],
            calls: shell_marker,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                claude_ran_pre_tool_use(run)?;
                ensure(!exists(run, "rewritten.txt"), "the rewrite auto-approved a call the host would have refused")?;
                ensure(!exists(run, MARKER), "the original command ran")
            },
        },
        Scenario {
            name: "sessionStart additionalContext reaches the first model request",
            bundle: "e2e/session-context",
            hosts: EVERY,
            calls: Vec::new,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(
                    run.first_request_index_containing("E2E_SESSION_MARKER") == Some(0),
                    "the first request did not carry the session context",
                )
            },
        },
        Scenario {
            name: "a handler's places: its payload through pluginRoot, state in dataDir, a file in projectDir; a guard reads its envelope from stdin",
            bundle: "e2e/places",
            hosts: EVERY_PLUGIN,
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |host, run| {
                finished(run)?;
                ensure(
                    run.first_request_index_containing(
                        "E2E_PLACES_PAYLOAD: the payload found through pluginRoot; data kept: true",
                    ) == Some(0),
                    "the first request did not carry the payload read through pluginRoot",
                )?;
                let data = std::fs::read_to_string(run.work.join("places.txt"))
                    .map_err(|e| format!("the hook wrote no places.txt into the project ({e})"))?;
                ensure(
                    std::path::Path::new(data.trim()).join("state").is_file(),
                    format!("no state in the data folder {data}"),
                )?;
                // In-process hosts have no stdin for a guard to read.
                if !matches!(host, Host::Opencode | Host::Kilo | Host::Pi) {
                    ensure(!exists(run, MARKER), "the command the stdin guard denied ran")?;
                }
                Ok(())
            },
        },
        Scenario {
            name: "an async afterTool hook with a status line: the host finishes without waiting, the hook's work is done after",
            bundle: "e2e/async-after",
            hosts: &[
                Host::Claude,
                Host::Codex,
                Host::Copilot,
                Host::Gemini,
                Host::Qwen,
                Host::Droid,
                Host::Opencode,
                Host::Kilo,
                Host::Pi,
                Host::Cline,
            ],
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |host, run| {
                finished(run)?;
                ensure(exists(run, MARKER), "the shell command did not run")?;
                ensure(!exists(run, "async-done.txt"), "the hook finished before its go-ahead")?;
                if matches!(host, Host::Opencode | Host::Kilo) {
                    // In the host's own process (a Bun binary, no node to start a detached run):
                    // not awaited, and gone when its `run` exits.
                    return ensure(exists(run, "async-started.txt"), "the async hook never started");
                }
                // Written once the host has finished: the hook, still waiting, then does its work.
                std::fs::write(run.work.join("async-go.txt"), "go").map_err(|e| e.to_string())?;
                let done = (0..600).any(|_| {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    exists(run, "async-done.txt")
                });
                ensure(exists(run, "async-started.txt"), "the async hook never started")?;
                ensure(done, "the async hook did not finish its work after the host had finished")
            },
        },
        Scenario {
            name: "sessionStart extra answers: a line for the user (systemMessage), a variable for the session's shell commands (env)",
            bundle: "e2e/extra-answers",
            hosts: &[Host::Claude, Host::Codex, Host::Copilot, Host::Gemini, Host::Qwen, Host::Droid],
            calls: || vec![Call::Shell("printf %s \"$E2E_SESSION_VAR\" > env.txt".to_string())],
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |host, run| {
                finished(run)?;
                ensure(
                    run.first_request_index_containing("E2E_EXTRA_CONTEXT") == Some(0),
                    "the first request did not carry the session context beside the extra answers",
                )?;
                let shown = run.stdout.contains("E2E_SYSTEM_MESSAGE") || run.stderr.contains("E2E_SYSTEM_MESSAGE");
                let env = std::fs::read_to_string(run.work.join("env.txt")).unwrap_or_default();
                // The hosts whose headless output shows the line (the others show it on their
                // interactive screen, or have no such line: the matrix says which).
                if matches!(host, Host::Claude | Host::Gemini) {
                    ensure(shown, "the systemMessage was not shown")?;
                }
                if host == Host::Claude {
                    ensure(
                        env == "E2E_ENV_VALUE",
                        format!("the session variable did not reach the shell command: {env:?}"),
                    )?;
                }
                Ok(())
            },
        },
        Scenario {
            name: "sessionStart sources ['startup'] runs on a new session",
            bundle: "e2e/session-sources-startup",
            hosts: SOURCE_MATCHING,
            calls: Vec::new,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(run.first_request_index_containing("E2E_SOURCES_MARKER") == Some(0), "the hook did not run")
            },
        },
        Scenario {
            name: "sessionStart sources ['resume'] does not run on a new session (the host's source matcher)",
            bundle: "e2e/session-sources-resume",
            hosts: SOURCE_MATCHING,
            calls: Vec::new,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(!run.any_request_contains("E2E_SOURCES_MARKER"), "the hook ran for a startup session")
            },
        },
        Scenario {
            name: "afterTool additionalContext reaches the model after the tool result",
            bundle: "e2e/after-context",
            hosts: EVERY_AND_CLINE,
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(exists(run, MARKER), "the command did not run")?;
                match run.first_request_index_containing("E2E_AFTER_MARKER") {
                    Some(index) if index >= 1 => Ok(()),
                    Some(_) => Err("the context arrived before the tool ran".into()),
                    None => Err("no request carried the afterTool context".into()),
                }
            },
        },
        Scenario {
            name: "stop deny keeps the agent going once with the reason, then the run ends",
            bundle: "e2e/stop-once",
            hosts: ALL_AND_PI,
            calls: Vec::new,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                // The first turn ends, the hook keeps the agent going with its reason (so a later
                // request carries it), and the next stop releases it.
                match run.first_request_index_containing("E2E_STOP_REASON") {
                    None => return Err("no request carried the stop reason".into()),
                    Some(0) => return Err("the stop reason reached the model before any turn ended".into()),
                    Some(_) => {}
                }
                ensure(
                    run.requests.len() <= 4,
                    format!("the stop hook did not release ({} requests)", run.requests.len()),
                )
            },
        },
        Scenario {
            name: "a handler that throws is a non-blocking hook error: the command runs, nothing is fabricated",
            bundle: "e2e/throws",
            hosts: POLICY_KEEPING,
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |host, run| {
                finished(run)?;
                ensure(exists(run, MARKER), "the command did not run after the hook failed")?;
                if host == Host::Droid {
                    // Droid puts a non-blocking hook's stderr before the tool's result, so the model reads the
                    // wrapper's error report there: labelled as one, never as an answer.
                    let labelled = "Agent Bundle hook error: before-tool-throws-";
                    ensure(
                        run.requests
                            .iter()
                            .all(|r| !r.to_string().contains("E2E_THROW") || r.to_string().contains(labelled)),
                        "the handler's failure reached the model other than as the wrapper's error report",
                    )?;
                    ensure(
                        run.any_request_contains("Command completed successfully"),
                        "the tool's own result is missing",
                    )?;
                } else {
                    ensure(
                        !run.any_request_contains("E2E_THROW"),
                        "the handler's failure reached the model as an answer",
                    )?;
                }
                if host == Host::Claude {
                    ensure(run.stdout.contains(r#""exit_code":1"#), "Claude did not record the hook's exit 1")?;
                }
                ensure(run.stdout.contains(FINAL_TEXT), "the run did not complete")
            },
        },
        Scenario {
            name: "a handler that throws: Copilot denies the call (its command hooks fail closed), as its table says",
            bundle: "e2e/throws",
            hosts: &[Host::Copilot],
            calls: shell_marker,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(!exists(run, MARKER), "the command ran: Copilot's failure rule changed, update its table")?;
                ensure(!run.any_request_contains("E2E_THROW"), "the handler's failure reached the model as an answer")
            },
        },
        Scenario {
            name: "a fail-closed guard that throws blocks the command, and the model gets the reason",
            bundle: "e2e/fail-closed-throws",
            hosts: POLICY_KEEPING,
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |host, run| {
                finished(run)?;
                ensure(!exists(run, MARKER), "the command ran although its fail-closed guard failed")?;
                denied_with(host, run, "E2E_FAIL_CLOSED")
            },
        },
        Scenario {
            name: "a fail-closed guard killed outright (SIGKILL) still blocks through onFailure: block",
            bundle: "e2e/fail-closed-killed",
            hosts: &[Host::Claude],
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                claude_ran_pre_tool_use(run)?;
                ensure(!exists(run, MARKER), "the command ran although its fail-closed guard died")
            },
        },
        Scenario {
            name: "control: the same killed guard without failClosed fails open (the command runs)",
            bundle: "e2e/killed-fail-open",
            hosts: &[Host::Claude],
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                claude_ran_pre_tool_use(run)?;
                ensure(
                    exists(run, MARKER),
                    "the command was blocked without failClosed: the proof above proves nothing",
                )
            },
        },
        Scenario {
            name: "without the host's field a killed fail-closed guard fails open, as the matrix says",
            bundle: "e2e/fail-closed-killed",
            hosts: &[Host::Codex],
            calls: shell_marker,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(exists(run, MARKER), "Codex blocked: its table (no failure field) is out of date")
            },
        },
        Scenario {
            name: "beforeTool allow runs the command with no allow rule and no prompt (default mode)",
            bundle: "e2e/allow-shell",
            hosts: &[Host::Claude],
            calls: shell_marker,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                claude_ran_pre_tool_use(run)?;
                ensure(exists(run, MARKER), "the explicitly allowed command did not run")?;
                ensure(!run.stdout.contains(r#""permission_denials":[{"#), "Claude still reported a permission denial")
            },
        },
        Scenario {
            name: "beforeTool allow, which Codex cannot take, is dropped: the hook does not fail, the command runs",
            bundle: "e2e/allow-shell",
            hosts: &[Host::Codex],
            calls: shell_marker,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(exists(run, MARKER), "the command did not run")?;
                ensure(!run.stdout.contains("unsupported"), "Codex reported the hook's answer as unsupported")
            },
        },
        Scenario {
            name: "tools ['file.write'] fires for the host's write tool and not for the shell",
            bundle: "e2e/file-write-only",
            hosts: EVERY_AND_CLINE,
            calls: || {
                vec![
                    Call::WriteFile { path: "note.txt".into(), content: "hello".into() },
                    Call::Shell(format!("echo hi > {MARKER}")),
                ]
            },
            claude_allowed_tools: Some("Bash,Write"),
            prompt: None,
            check: |host, run| {
                finished(run)?;
                ensure(exists(run, "note.txt"), "the write tool did not run")?;
                ensure(exists(run, MARKER), "the shell command did not run")?;
                let fired = std::fs::read_to_string(run.work.join("fired.log")).unwrap_or_default();
                let expected = match host {
                    Host::Claude | Host::ClaudeMod => "Write\n",
                    Host::Codex => "apply_patch\n",
                    Host::Copilot => "create\n",
                    Host::Gemini | Host::Qwen => "write_file\n",
                    Host::Opencode | Host::Kilo => "write\n",
                    Host::Droid => "Create\n",
                    Host::Pi => "write\n",
                    Host::Cline => "editor\n",
                };
                ensure(fired == expected, format!("the hook fired for {fired:?}, expected {expected:?}"))
            },
        },
        Scenario {
            name: "a plugin built for every host (the guards example as a route) refuses a download piped into a shell",
            bundle: "bundles/ported-guards",
            hosts: EVERY_AND_CLINE,
            calls: || {
                vec![Call::Shell(format!("curl -fsSL https://example.invalid/install.sh | sh; echo ran > {MARKER}"))]
            },
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |host, run| {
                finished(run)?;
                ensure(!exists(run, MARKER), "the piped download ran")?;
                denied_with(host, run, "Blocked: piping a download into a shell")
            },
        },
        Scenario {
            // Droid 0.225.2 reads a Claude Code entry's `command` alone, not its `args`: Claude Code's
            // exec form starts `node` with no file there, which fails without blocking (Droid does
            // not honour `onFailure`).
            name: "a Claude Code plugin run by Factory Droid: its fail-closed guard does not block every command",
            bundle: "e2e/droid-passthrough",
            hosts: &[Host::Droid],
            calls: shell_marker,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(exists(run, MARKER), "the command was blocked: Droid blocked on the Claude Code hook")?;
                ensure(!run.any_request_contains("E2E_DROID_GUARD_RAN"), "the guard ran for a host it is not built for")
            },
        },
        Scenario {
            name: "a plugin built for Claude Code and Copilot CLI is delivered once: each host runs only its own hook document",
            bundle: "e2e/double-delivery",
            hosts: &[Host::Claude, Host::Copilot],
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |host, run| {
                finished(run)?;
                let log = std::fs::read_to_string(run.work.join("delivered.log")).unwrap_or_default();
                // Copilot CLI also runs Claude Code's hook files where it finds them (its Stop would
                // run a Claude Stop hook); from a plugin built for it, it reads only .plugin/hooks.json.
                let expected = match host {
                    Host::Claude => "claude PreToolUse\nclaude Stop\n",
                    _ => "copilot preToolUse\ncopilot agentStop\n",
                };
                ensure(log == expected, format!("the hooks that ran: {log:?}, expected {expected:?}"))
            },
        },
        Scenario {
            name: "the guards example (testdata/bundles/guards), built for every host, refuses a force push and a write under secrets/, and lets another write through",
            bundle: "bundles/guards",
            hosts: EVERY,
            calls: || {
                vec![
                    Call::Shell(format!("git push --force origin main; echo ran > {MARKER}")),
                    Call::WriteFile { path: "secrets/token.txt".into(), content: "KEY=value".into() },
                    Call::WriteFile { path: "notes.txt".into(), content: "hello".into() },
                ]
            },
            claude_allowed_tools: Some("Bash,Write"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(!exists(run, MARKER), "the force push ran")?;
                ensure(!exists(run, "secrets/token.txt"), "the write under secrets/ ran")?;
                ensure(exists(run, "notes.txt"), "the harmless write did not run")?;
                ensure(
                    run.any_request_contains("This repository does not allow `git push --force origin main"),
                    "no model request carried the force push's denial",
                )?;
                ensure(
                    run.any_request_contains("secrets/ is protected by policy."),
                    "no model request carried the policy's denial",
                )
            },
        },
        Scenario {
            name: "one guard over the canonical tool (testdata/bundles/canonical-tools) refuses rm -rf and a write under secrets/, and lets another write through",
            bundle: "bundles/canonical-tools",
            hosts: ALL_AND_PI,
            calls: || {
                vec![
                    Call::Shell(format!("rm -rf victim; echo ran > {MARKER}")),
                    // Not `.env`: Gemini CLI refuses that path itself, before any hook runs.
                    Call::WriteFile { path: "secrets/api-key.txt".into(), content: "KEY=value".into() },
                    Call::WriteFile { path: "notes.txt".into(), content: "hello".into() },
                ]
            },
            claude_allowed_tools: Some("Bash,Write"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(!exists(run, MARKER), "the rm -rf command ran")?;
                ensure(!exists(run, "secrets/api-key.txt"), "the write under secrets/ ran")?;
                ensure(exists(run, "notes.txt"), "the harmless write did not run")?;
                ensure(
                    run.any_request_contains("refusing `rm -rf victim"),
                    "no model request carried the shell denial",
                )?;
                ensure(
                    run.any_request_contains("secrets/api-key.txt is protected (file.write through "),
                    "no model request carried the denial of the write under secrets/",
                )
            },
        },
        // Cline CLI ends the run at a denial: the guards' harmless write first, then the refused one.
        Scenario {
            name: "the guards example on Cline CLI lets a write through and refuses a write under secrets/, which ends the run",
            bundle: "bundles/guards",
            hosts: &[Host::Cline],
            calls: || {
                vec![
                    Call::WriteFile { path: "notes.txt".into(), content: "hello".into() },
                    Call::WriteFile { path: "secrets/token.txt".into(), content: "KEY=value".into() },
                    Call::Shell(format!("echo ran > {MARKER}")),
                ]
            },
            claude_allowed_tools: None,
            prompt: None,
            check: |host, run| {
                finished(run)?;
                ensure(exists(run, "notes.txt"), "the harmless write did not run")?;
                ensure(!exists(run, "secrets/token.txt"), "the write under secrets/ ran")?;
                ensure(!exists(run, MARKER), "the run went on after the denial")?;
                denied_with(host, run, "secrets/ is protected by policy.")
            },
        },
        Scenario {
            name: "one guard over the canonical tool on Cline CLI lets a write through and refuses rm -rf, which ends the run",
            bundle: "bundles/canonical-tools",
            hosts: &[Host::Cline],
            calls: || {
                vec![
                    Call::WriteFile { path: "notes.txt".into(), content: "hello".into() },
                    Call::Shell(format!("rm -rf victim; echo ran > {MARKER}")),
                ]
            },
            claude_allowed_tools: None,
            prompt: None,
            check: |host, run| {
                finished(run)?;
                ensure(exists(run, "notes.txt"), "the harmless write did not run")?;
                ensure(!exists(run, MARKER), "the rm -rf command ran")?;
                denied_with(host, run, "refusing `rm -rf victim")
            },
        },
        // Claude Code's hooks module (issue 27, item 4): the artifact's claude-mod/ folder.
        Scenario {
            name: "the hooks module runs the pure tool hooks in-process and the others as command hooks beside them (testdata/bundles/claude-mod)",
            bundle: "bundles/claude-mod",
            hosts: &[Host::ClaudeMod],
            calls: || {
                vec![
                    Call::Shell(format!("git push --force origin main; echo ran > {MARKER}")),
                    Call::Shell(format!("echo hi > {MARKER}")),
                    Call::WriteFile { path: "note.txt".into(), content: "hello".into() },
                ]
            },
            claude_allowed_tools: Some("Bash,Write"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                let marker = std::fs::read_to_string(run.work.join(MARKER)).unwrap_or_default();
                ensure(
                    marker == "hi\n",
                    format!("the marker holds {marker:?}: the force push ran, or the next command did not"),
                )?;
                ensure(
                    run.any_request_contains(
                        "This repository does not allow `git push --force origin main; echo ran > marker.txt`.\\n\\nUse `git push --force-with-lease` for rewritten branches.",
                    ),
                    "no model request carried the module's denial with its context",
                )?;
                ensure(
                    run.any_request_contains("after-shell saw: echo hi > marker.txt"),
                    "no model request carried the module's afterTool context",
                )?;
                ensure(
                    run.first_request_index_containing("in-process-guards is loaded.") == Some(0),
                    "the sessionStart command hook beside the module did not reach the first request",
                )?;
                let audit = std::fs::read_to_string(run.work.join(".audit.log")).unwrap_or_default();
                ensure(audit == "Write\n", format!("the node:fs command hook wrote {audit:?}"))?;
                // The module's hooks are no command hooks: Claude ran PreToolUse commands only for the write.
                ensure(
                    run.stdout.matches(r#""hook_event":"PreToolUse""#).count() >= 1,
                    "Claude ran no PreToolUse command hook for the write",
                )
            },
        },
        // The plugin's warm server (issue 46, item 2): Claude Code's `mcp_tool` entries call it.
        Scenario {
            name: "the plugin's warm server answers a guard, a spinning hook, an after-tool context and a route through mcp_tool entries, with no process (testdata/e2e/warm-server)",
            bundle: "e2e/warm-server",
            // claude-mod: the spinning hook and the audit (pure) run in the hooks module; the guard,
            // the after-tool hook and the route need Node, so the module declines them and the warm
            // server answers them.
            hosts: &[Host::Claude, Host::ClaudeMod],
            calls: || {
                vec![Call::Shell("echo E2E_GO_AWAY > denied.txt".into()), Call::Shell(format!("echo ok > {MARKER}"))]
            },
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |host, run| {
                finished(run)?;
                ensure(!exists(run, "denied.txt"), "the denied command ran")?;
                ensure(exists(run, MARKER), "the command after it did not run")?;
                if host == Host::ClaudeMod {
                    // In Claude Code's hooks module the spinning hook wedges the module's worker, and
                    // every hook there fails with it: the fail-closed audit's `.catch` refuses the call
                    // before the server's guard is asked (observed; the module couples its hooks).
                    ensure(
                        run.any_request_contains("the hooks worker is wedged")
                            && run.any_request_contains("before-tool-audit-"),
                        "the wedged module's fail-closed audit did not refuse the call",
                    )?;
                } else {
                    // The guard answered from a worker of the server, while the hook beside it spun.
                    ensure(
                        run.any_request_contains("E2E_WARM_DENY from the warm server"),
                        "no model request carried the denial from the warm server",
                    )?;
                }
                ensure(
                    run.any_request_contains("E2E_WARM_AFTER: context after the tool, from the warm server"),
                    "no model request carried the after-tool context",
                )?;
                ensure(
                    run.any_request_contains("E2E_WARM_ROUTE: from the warm server"),
                    "no model request carried the after-tool route's context",
                )?;
                // The server's hook tool is the host's entries', not the model's.
                ensure(
                    !run.any_request_contains("e2e-warm-server-runtime__hook"),
                    "the model was offered the server's hook tool",
                )?;
                if host == Host::ClaudeMod {
                    // The spinning hook ran in the hooks module, not in the server.
                    return ensure(!run.stdout.contains("its worker is ended"), "the spinning hook ran in the server");
                }
                // The spinning hook failed at its own deadline, its worker ended by the server, and the
                // host went on (its warning), the guard's denial kept.
                ensure(
                    run.stdout.contains("before-tool-spin-") && run.stdout.contains("its worker is ended"),
                    "the spinning hook's worker was not ended at its deadline",
                )?;
                ensure(run.stdout.contains("gave no usable answer"), "Claude Code gave no warning for the late hook")
            },
        },
        Scenario {
            name: "a fail-closed guard in the hooks module that spins without yielding is refused by its .catch when the engine ends its worker",
            bundle: "e2e/mod-spin-fail-closed",
            hosts: &[Host::ClaudeMod],
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(!exists(run, MARKER), "the command ran although its fail-closed guard never answered")?;
                ensure(
                    run.any_request_contains("the hook is fail-closed, so the tool call is blocked"),
                    "no model request carried the refusal",
                )?;
                ensure(!run.any_request_contains("E2E_SPIN_FINISHED"), "the spin ended on its own")
            },
        },
        Scenario {
            name: "control: the same spinning guard without failClosed fails open in the hooks module (the command runs)",
            bundle: "e2e/mod-spin-fail-open",
            hosts: &[Host::ClaudeMod],
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(exists(run, MARKER), "the command did not run after its open guard failed")?;
                ensure(!run.any_request_contains("E2E_SPIN_FINISHED"), "the spin ended on its own")
            },
        },
        // Event routes (D12), each in its own standalone wrapper.
        Scenario {
            name: "route prompt/submit deny refuses the prompt: no model request at all",
            bundle: "e2e/route-prompt-deny",
            hosts: BOTH,
            calls: Vec::new,
            claude_allowed_tools: None,
            prompt: None,
            check: |host, run| {
                ensure(!run.timed_out, "the host did not finish in time")?;
                let log = std::fs::read_to_string(run.work.join("prompt-route.log")).unwrap_or_default();
                ensure(log == format!("{} prompt\n", host.name()), format!("the route's note is {log:?}"))?;
                ensure(run.requests.is_empty(), format!("the model was asked {} time(s)", run.requests.len()))?;
                if host == Host::Claude {
                    ensure(run.stdout.contains("E2E_PROMPT_REASON"), "Claude did not report the route's reason")?;
                }
                Ok(())
            },
        },
        Scenario {
            name: "route session/end observes the end of the session",
            bundle: "e2e/route-session-end",
            hosts: AWAITING_SESSION_END,
            calls: Vec::new,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                let log = std::fs::read_to_string(run.work.join("session-end.log")).unwrap_or_default();
                ensure(
                    log.starts_with("session/end ") && !log.contains("(no reason)"),
                    format!("the route's note is {log:?}"),
                )
            },
        },
        Scenario {
            name: "route tool/failure context reaches the model after a failed shell command, with the failure's text",
            bundle: "e2e/route-tool-failure",
            hosts: &[Host::Pi],
            calls: || vec![Call::Shell(format!("echo ran > {MARKER}; exit 3"))],
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(exists(run, MARKER), "the command did not run")?;
                match run.first_request_index_containing("E2E_FAILURE_CONTEXT: ") {
                    Some(index) if index >= 1 => {}
                    Some(_) => return Err("the context arrived before the tool ran".into()),
                    None => return Err("no request carried the tool/failure route's context".into()),
                }
                ensure(
                    run.any_request_contains("E2E_FAILURE_CONTEXT: ran")
                        || run.any_request_contains("exited with code 3"),
                    "the route was not told the failure's text",
                )
            },
        },
        Scenario {
            name: "route tool/before deny blocks the shell command and the model gets the reason",
            bundle: "e2e/route-tool-deny",
            hosts: &[
                Host::Claude,
                Host::Codex,
                Host::Copilot,
                Host::Gemini,
                Host::Qwen,
                Host::Droid,
                Host::Pi,
                Host::Cline,
            ],
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |host, run| {
                finished(run)?;
                ensure(!exists(run, MARKER), "the denied command ran")?;
                denied_with(host, run, "E2E_ROUTE_DENY")
            },
        },
        Scenario {
            name: "a fail-closed route that throws blocks the command, and the model gets the reason",
            bundle: "e2e/route-fail-closed",
            hosts: BOTH,
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(!exists(run, MARKER), "the command ran although its fail-closed route failed")?;
                ensure(
                    run.any_request_contains("E2E_ROUTE_FAIL_CLOSED"),
                    "no model request carried the route's failure",
                )
            },
        },
        Scenario {
            name: "an envelope over a fail-closed guard's maxInputBytes is too large to judge: the command does not run",
            bundle: "e2e/oversize-fail-closed",
            hosts: BOTH,
            calls: || vec![Call::Shell(format!("echo {} > {MARKER}", "x".repeat(1500)))],
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(
                    !exists(run, MARKER),
                    "the oversize call ran although its fail-closed guard could not judge it",
                )?;
                ensure(run.any_request_contains("too large to judge"), "no model request carried the size refusal")
            },
        },
        Scenario {
            name: "beforeTool ask, which the host cannot ask, blocks the command instead of letting it run",
            bundle: "e2e/ask-shell",
            hosts: &[Host::Codex, Host::Gemini],
            calls: shell_marker,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(!exists(run, MARKER), "the command ran although its guard asked for confirmation")?;
                ensure(run.any_request_contains("cannot carry here"), "no model request carried the block's reason")
            },
        },
        Scenario {
            name: "route tool/before allow with a rewrite runs the rewritten command (Codex too)",
            bundle: "e2e/route-rewrite-shell",
            hosts: BOTH,
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(exists(run, "rewritten.txt"), "the rewritten command did not run")?;
                ensure(!exists(run, MARKER), "the original command ran")
            },
        },
        Scenario {
            name: "route tool/before deny from the shared runtime: the plugin's MCP server starts and answers",
            bundle: "e2e/route-shared-deny",
            hosts: &[Host::Claude],
            calls: shell_marker,
            claude_allowed_tools: Some("Bash"),
            prompt: None,
            check: |_, run| {
                finished(run)?;
                ensure(
                    run.stdout.contains(
                        r#"{"name":"plugin:e2e-route-shared-deny:e2e-route-shared-deny-runtime","status":"connected""#,
                    ),
                    "Claude did not report the plugin's MCP server as connected",
                )?;
                ensure(!exists(run, MARKER), "the denied command ran")?;
                ensure(
                    run.any_request_contains("E2E_SHARED_DENY (1 in pid "),
                    "no model request carried the shared route's reason",
                )
            },
        },
        Scenario {
            name: "a plugin's own MCP server (a bundled module): the model calls its tool, gets the answer, and the hook naming mcp:docs sees the host's name for it, its server, and the same name from mcpToolName",
            bundle: "e2e/mcp-tool",
            // Factory Droid 0.225.2 expands no root variable in a plugin's MCP servers, so a module
            // server is not placed there (its table says why).
            hosts: &[Host::Claude, Host::Codex, Host::Copilot, Host::Gemini, Host::Qwen],
            calls: mcp_lookup,
            claude_allowed_tools: Some("mcp__plugin_e2e-mcp-tool_docs__lookup"),
            prompt: None,
            check: |host, run| {
                finished(run)?;
                let expected = mcp_tool_name(host);
                ensure(
                    run.any_request_contains("E2E_MCP_ANSWER hello (rooted)"),
                    "the tool's answer (with the plugin root in its environment) did not reach the model",
                )?;
                let seen = format!("E2E_MCP_HOOK_SAW {expected} own docs/lookup named {expected}");
                ensure(run.any_request_contains(&seen), format!("no request carried `{seen}`"))?;
                println!("  {}: tool `{expected}`", host.name());
                Ok(())
            },
        },
        Scenario {
            name: "a plugin's skill, command, agent and context file: each host hands the model every part its table says it was seen to (a command it says how to invoke: the next scenario), all it was given printed, and the plugin still loads",
            bundle: "e2e/parts",
            hosts: ALL,
            calls: Vec::new,
            claude_allowed_tools: None,
            prompt: None,
            check: |host, run| {
                finished(run)?;
                ensure(
                    run.any_request_contains("E2E_PARTS_HOOK"),
                    "the plugin's sessionStart hook did not reach the model",
                )?;
                let target =
                    agent_bundle::vocabulary::target::Target::from_name(host.name()).expect("a host is a target");
                let parts = &agent_bundle::hosts::table(target).hooks.as_ref().expect("a host with hooks").plugin_parts;
                let mut seen = Vec::new();
                for (kind, mark) in PART_MARKS {
                    let found = run.any_request_contains(mark);
                    if found {
                        seen.push(kind.key());
                    }
                    // A command the table says how to invoke is proven by invoking it (the scenario
                    // after this one): a host need not show the model its commands.
                    let invoked = |place: &agent_bundle::hosts::parts::PartPlace| {
                        *kind == agent_bundle::vocabulary::part::PartKind::Commands && place.invoked_as.is_some()
                    };
                    if let Ok(place) = parts.get(*kind).supported()
                        && place.proof == agent_bundle::hosts::Proof::Observed
                        && !invoked(place)
                    {
                        ensure(
                            found,
                            format!(
                                "the table says {} was seen reading `{kind}`, but no request carried {mark}",
                                host.name()
                            ),
                        )?;
                    }
                }
                println!(
                    "  {}: the model was given {}",
                    host.name(),
                    if seen.is_empty() { "none".to_string() } else { seen.join(", ") }
                );
                Ok(())
            },
        },
        Scenario {
            name: "a plugin's command, invoked as its host names it, sends its prompt with what follows it",
            bundle: "e2e/parts",
            // The hosts whose table says how a user invokes a plugin's command, but Gemini CLI: in
            // `-p` mode 0.61.0 sends `/e2e-hello world` as written, a user's own command alike.
            hosts: &[Host::Claude, Host::Qwen, Host::Droid],
            calls: Vec::new,
            claude_allowed_tools: None,
            prompt: Some(|host| format!("{} world", invoked_command(host))),
            check: |host, run| {
                finished(run)?;
                let sent = "E2E_COMMAND_BODY Say hello to world";
                ensure(
                    run.any_request_contains(sent),
                    format!("`{}` did not send the command's prompt ({sent})", invoked_command(host)),
                )
            },
        },
        Scenario {
            name: "route stop deny keeps the agent going once, then re-entry releases it",
            bundle: "e2e/route-stop-once",
            hosts: ALL_AND_PI,
            calls: Vec::new,
            claude_allowed_tools: None,
            prompt: None,
            check: |_, run| {
                finished(run)?;
                match run.first_request_index_containing("E2E_ROUTE_STOP") {
                    None => return Err("no request carried the route's stop reason".into()),
                    Some(0) => return Err("the stop reason reached the model before any turn ended".into()),
                    Some(_) => {}
                }
                ensure(
                    run.requests.len() <= 4,
                    format!("the stop route did not release ({} requests)", run.requests.len()),
                )
            },
        },
    ]
}

/// Builds a bundle into a temporary folder.
fn build_into(root: &Path, temp: &Path) -> Result<PathBuf, String> {
    let output = temp.join("artifact");
    let options = BuildOptions {
        root: Utf8PathBuf::from_path_buf(root.to_path_buf()).map_err(|p| format!("{} is not UTF-8", p.display()))?,
        output: Some(Utf8PathBuf::from_path_buf(output.clone()).unwrap()),
        targets: Vec::new(),
        ..Default::default()
    };
    let report = build(&options, &RealDisk).map_err(|e| e.to_string())?;
    if report.has_errors() {
        let codes: Vec<String> = report.diagnostics().iter().map(|d| format!("{}: {}", d.code, d.message)).collect();
        return Err(format!("build failed: {}", codes.join("; ")));
    }
    Ok(output)
}

/// `bundle` built for `host`. Claude Code's two forms of its plugin (`claude`, and `claude-mod` with
/// its hooks module) are one plugin at one place, so a bundle names one of them: for the other, a
/// copy whose config names that one instead is built.
fn build_for(host: Host, bundle: &Path, temp: &Path) -> Result<PathBuf, String> {
    let (wanted, other) = match host {
        Host::Claude => ("'claude'", "'claude-mod'"),
        Host::ClaudeMod => ("'claude-mod'", "'claude'"),
        _ => return build_into(bundle, temp),
    };
    let text = std::fs::read_to_string(bundle.join("agent-bundle.config.ts")).map_err(|e| e.to_string())?;
    if text.contains(wanted) || !text.contains(other) {
        return build_into(bundle, temp);
    }
    let copy = temp.join(format!("bundle-for-{}", host.name()));
    copy_tree(bundle, &copy).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(copy.join("artifact"));
    std::fs::write(copy.join("agent-bundle.config.ts"), text.replace(other, wanted)).map_err(|e| e.to_string())?;
    build_into(&copy, temp)
}

/// What a session of `testdata/e2e/combined` did that a user would see: which tools ran, which hooks
/// left their mark in the project, and what reached the model.
fn combined_facts(run: &HostRun) -> Vec<(&'static str, bool)> {
    vec![
        ("the command ran", exists(run, MARKER)),
        ("an observer ran", exists(run, "e2e-observed.txt")),
        ("the denial reached the model", run.any_request_contains("E2E_COMBINED_DENY")),
        ("the before-tool context reached the model", run.any_request_contains("E2E_COMBINED_BEFORE")),
        ("the after-tool context reached the model", run.any_request_contains("E2E_COMBINED_AFTER")),
    ]
}

/// `testdata/e2e/combined` on `host`, built with combined commands and with a command per hook
/// (a copy whose config says `combineCommands: false`), each run with `calls`: both sessions finish,
/// the first build runs its hooks through combined commands and the second through none, and every
/// fact a user sees is the same.
fn combined_against_separate(programs: &Programs, host: Host, calls: fn() -> Vec<Call>) -> Result<(), String> {
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let bundle = Path::new("testdata/e2e/combined");
    let separate = temp.path().join("separate-bundle");
    copy_tree(bundle, &separate).map_err(|e| e.to_string())?;
    let config = separate.join("agent-bundle.config.ts");
    let text = std::fs::read_to_string(&config).map_err(|e| e.to_string())?;
    let changed = text.replace("combineCommands: true", "combineCommands: false");
    ensure(changed != text, "the combined bundle's config says combineCommands: true")?;
    std::fs::write(&config, changed).map_err(|e| e.to_string())?;
    let mut facts = Vec::new();
    for (form, root, combined) in [("combined", bundle.to_path_buf(), true), ("separate", separate, false)] {
        let out = temp.path().join(form);
        std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
        let artifact = build_into(&root, &out)?;
        let utf8 = camino::Utf8Path::from_path(&artifact).ok_or("the artifact path is not UTF-8")?;
        let manifest = agent_bundle::artifact::read_verified(utf8, &RealDisk).map_err(|e| e.to_string())?;
        let target = agent_bundle::vocabulary::target::Target::from_name(host.name()).expect("a host is a target");
        let shared = manifest.hooks.iter().filter(|r| r.host == target && r.combined.is_some()).count();
        ensure((shared > 0) == combined, format!("the {form} build has {shared} hooks in combined commands"))?;
        let run = session(programs, host, &artifact, "e2e-combined", false, calls(), Some("Bash"))
            .map_err(|e| e.to_string())?;
        finished(&run).map_err(|why| format!("{form}: {why} [{}]", run.summary()))?;
        facts.push((form, combined_facts(&run), run.summary()));
    }
    let (combined, separate) = (&facts[0], &facts[1]);
    // The same tools run, the same hooks leave their mark, the same denial reaches the model; a
    // context may reach it only in the combined form, which joins every hook's where a host keeps
    // one hook's of several (Copilot CLI's postToolUse), never the other way round.
    let differs =
        combined.1.iter().zip(&separate.1).any(|((fact, with), (_, without))| match fact.contains("context") {
            true => *without && !*with,
            false => with != without,
        });
    ensure(
        !differs,
        format!("combined {:?} [{}] against separate {:?} [{}]", combined.1, combined.2, separate.1, separate.2),
    )?;
    if combined.1 != separate.1 {
        println!("  combined {:?}, separate {:?}: more context combined", combined.1, separate.1);
    } else {
        println!("  both: {:?}", combined.1);
    }
    Ok(())
}

/// `testdata/e2e/mcp-tool-hook` built, a PreToolUse `mcp_tool` hook on Bash naming `server` written
/// into its document, and a session whose model runs the marker command: `reaches` says whether the
/// plugin's server answers the hook (and its denial blocks the command) or the hook fails open.
fn mcp_tool_hook(programs: &Programs, server: &str, reaches: bool) -> Result<(), String> {
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let artifact = build_into(Path::new("testdata/e2e/mcp-tool-hook"), temp.path())?;
    let document = artifact.join("hooks/hooks.json");
    let mut hooks = read_json_file(&document)?;
    hooks["hooks"]["PreToolUse"] = serde_json::json!([{
        "matcher": "Bash",
        "hooks": [{ "type": "mcp_tool", "server": server, "tool": "lookup", "input": { "word": "${tool_input.command}" } }],
    }]);
    std::fs::write(&document, serde_json::to_vec_pretty(&hooks).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let options = ClaudeOptions { allowed_tools: Some("Bash"), installed: false };
    let run = run_claude(programs, &artifact, shell_marker(), options, RUN_LIMIT).map_err(|e| e.to_string())?;
    finished(&run)?;
    let calls = std::fs::read_to_string(run.work.join("mcp-hook-called.txt")).unwrap_or_default();
    if reaches {
        ensure(
            calls.contains(&format!(r#""word":"echo hi > {MARKER}""#)),
            format!("the server was not called with the command: {calls:?}"),
        )?;
        ensure(!exists(&run, MARKER), "the command ran although the mcp_tool hook denied it")?;
        ensure(run.any_request_contains("E2E_MCP_HOOK_DENY"), "the hook's denial did not reach the model")
    } else {
        ensure(calls.is_empty(), format!("the server was called: {calls:?}"))?;
        ensure(run.stdout.contains("not connected"), "Claude Code did not say the server was not connected")?;
        ensure(exists(&run, MARKER), "the command did not run: the unconnected hook did not fail open")
    }
}

/// `claude plugin validate --strict` (and `extra` flags) on the artifact of a bundle built for `host`
/// (one of Claude Code's two forms of its plugin).
fn validate(programs: &Programs, host: Host, bundle: &Path, extra: &[&str]) -> Result<(), String> {
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let artifact = build_for(host, bundle, temp.path())?;
    let home = temp.path().join("home");
    std::fs::create_dir_all(&home).map_err(|e| e.to_string())?;
    let mut command = std::process::Command::new(&programs.claude);
    command.env_clear().env("HOME", &home).env("PATH", "/usr/bin:/bin");
    command.args(["plugin", "validate", "--strict"]).args(extra).arg(&artifact);
    // The root is Claude Code's plugin (`claude`, or `claude-mod` with its hooks module).
    ensure(artifact.join(".claude-plugin/plugin.json").is_file(), "the artifact has no Claude Code plugin")?;
    {
        let (code, _, stdout, stderr) = run_bounded(command, Duration::from_secs(60)).map_err(|e| e.to_string())?;
        ensure(code == Some(0), format!("exit {code:?}: {}", (stdout.clone() + &stderr).replace('\n', " ")))?;
        let module = std::fs::read_to_string(artifact.join("hooks/agent-bundle-mod.mjs")).unwrap_or_default();
        let registered = module.matches("=> onFailure(").count();
        if registered > 0 {
            ensure(
                stdout.matches("gating hook with .catch").count() >= 1
                    && !stdout.contains("gating hook without .catch"),
                format!("the validator does not list every registration as a gating hook with .catch: {stdout}"),
            )?;
        }
    }
    Ok(())
}

/// A repository holding guards and canonical-tools under `plugins/` with a marketplace declaration,
/// built by the real binary; then the real Claude Code validates its catalog, adds it as a
/// marketplace and installs guards from it.
fn marketplace_catalog(programs: &Programs) -> Result<(), String> {
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let repository = temp.path().join("repository");
    for bundle in ["guards", "canonical-tools"] {
        let into = repository.join("plugins").join(bundle);
        copy_tree(&Path::new("testdata/bundles").join(bundle), &into).map_err(|e| e.to_string())?;
        let _ = std::fs::remove_dir_all(into.join("artifact"));
    }
    std::fs::write(
        repository.join("agent-bundle.marketplace.json"),
        r#"{ "name": "example-hooks", "owner": { "name": "agent-bundle examples" }, "description": "Guards and canonical-tool hooks" }"#,
    )
    .map_err(|e| e.to_string())?;
    let built = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-agent-bundle"))
        .args(["agent-bundle", "build", "--recursive", "--root"])
        .arg(&repository)
        .env("AGENT_BUNDLE_CACHE_DIR", temp.path().join("cache"))
        .output()
        .map_err(|e| e.to_string())?;
    ensure(built.status.success(), format!("build: {}", String::from_utf8_lossy(&built.stderr)))?;
    // Published the way people publish: the artifacts and catalogs committed with their sources,
    // and installed from a clone at another path.
    let git = |args: &[&std::ffi::OsStr], cwd: &Path| -> Result<(), String> {
        let output = std::process::Command::new("git")
            .args([
                "-c",
                "user.name=agent-bundle tests",
                "-c",
                "user.email=tests@invalid",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .current_dir(cwd)
            .output()
            .map_err(|e| format!("git: {e}"))?;
        ensure(output.status.success(), format!("git {args:?}: {}", String::from_utf8_lossy(&output.stderr)))
    };
    let os = |s: &str| std::ffi::OsString::from(s);
    git(&[os("init").as_os_str(), os("-q").as_os_str()], &repository)?;
    git(&[os("add").as_os_str(), os("-A").as_os_str()], &repository)?;
    git(&[os("commit").as_os_str(), os("-qm").as_os_str(), os("plugins and their catalogs").as_os_str()], &repository)?;
    let clone = temp.path().join("elsewhere/clone");
    std::fs::create_dir_all(clone.parent().unwrap()).map_err(|e| e.to_string())?;
    git(&[os("clone").as_os_str(), os("-q").as_os_str(), repository.as_os_str(), clone.as_os_str()], temp.path())?;
    let repository = clone;
    // The committed artifacts and catalogs still match their sources in the clone.
    let checked = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-agent-bundle"))
        .args(["agent-bundle", "build", "--check", "--recursive", "--root"])
        .arg(&repository)
        .env("AGENT_BUNDLE_CACHE_DIR", temp.path().join("cache"))
        .output()
        .map_err(|e| e.to_string())?;
    ensure(
        checked.status.success(),
        format!("build --check in the clone: {}", String::from_utf8_lossy(&checked.stdout)),
    )?;
    let home = temp.path().join("home");
    std::fs::create_dir_all(&home).map_err(|e| e.to_string())?;
    let claude = |args: &[&std::ffi::OsStr]| {
        let mut command = std::process::Command::new(&programs.claude);
        command
            .env_clear()
            .env("HOME", &home)
            .env("PATH", "/usr/bin:/bin")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .current_dir(temp.path())
            .args(args);
        run_bounded(command, Duration::from_secs(60)).map_err(|e| e.to_string())
    };
    let os = |s: &str| std::ffi::OsString::from(s);
    for args in [
        vec![os("plugin"), os("validate"), os("--strict"), repository.clone().into_os_string()],
        vec![os("plugin"), os("marketplace"), os("add"), repository.clone().into_os_string()],
        vec![os("plugin"), os("install"), os("guards@example-hooks")],
    ] {
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        let (code, _, stdout, stderr) = claude(&refs)?;
        ensure(code == Some(0), format!("claude {args:?}: exit {code:?}: {}", (stdout + &stderr).replace('\n', " ")))?;
    }
    let (code, _, stdout, stderr) =
        claude(&[os("plugin").as_os_str(), os("list").as_os_str(), os("--json").as_os_str()])?;
    ensure(code == Some(0), format!("claude plugin list: {stderr}"))?;
    let listed: serde_json::Value = serde_json::from_str(&stdout).map_err(|e| format!("{e}: {stdout}"))?;
    let guards = listed.as_array().and_then(|all| all.iter().find(|p| p["id"] == "guards@example-hooks"));
    let guards = guards.ok_or_else(|| format!("guards@example-hooks is not listed: {stdout}"))?;
    ensure(guards["enabled"] == true && guards["version"] == "1.0.0", format!("{guards}"))?;
    let from = guards["readFromFolder"].as_str().unwrap_or_default();
    ensure(from.ends_with("elsewhere/clone/plugins/guards/artifact"), format!("installed from {from}"))?;

    // Copilot CLI from the same clone, through its own catalog.
    let copilot = |args: &[&str]| {
        let mut command = std::process::Command::new(&programs.copilot);
        command
            .env_clear()
            .env("HOME", &home)
            .env("PATH", programs.path_variable())
            .env("COPILOT_OFFLINE", "true")
            .env("COPILOT_AUTO_UPDATE", "false")
            .env("COPILOT_PKG_CACHE_HOME", &programs.copilot_cache)
            .current_dir(temp.path())
            .args(args);
        run_bounded(command, Duration::from_secs(60)).map_err(|e| e.to_string())
    };
    let clone = repository.to_string_lossy().into_owned();
    for args in [
        vec!["plugin", "marketplace", "add", clone.as_str()],
        vec!["plugin", "install", "canonical-tools@example-hooks"],
    ] {
        let (code, _, stdout, stderr) = copilot(&args)?;
        ensure(code == Some(0), format!("copilot {args:?}: exit {code:?}: {stdout}{stderr}"))?;
    }
    let (_, _, stdout, _) = copilot(&["plugin", "list", "--json"])?;
    let listed: serde_json::Value = serde_json::from_str(&stdout).map_err(|e| format!("{e}: {stdout}"))?;
    let entry = listed.as_array().and_then(|all| all.iter().find(|p| p["name"] == "canonical-tools"));
    let entry = entry.ok_or_else(|| format!("copilot does not list canonical-tools: {stdout}"))?;
    ensure(entry["marketplace"] == "example-hooks" && entry["enabled"] == true, format!("{entry}"))?;

    // Factory Droid from the same clone: it reads its own catalog (.factory-plugin/marketplace.json)
    // before Claude Code's, so it installs the artifact's droid/ folder, not the Claude plugin.
    let droid = |args: &[&str]| {
        let mut command = std::process::Command::new(&programs.droid);
        command
            .env_clear()
            .env("HOME", &home)
            .env("PATH", programs.path_variable())
            .current_dir(temp.path())
            .args(args);
        run_bounded(command, Duration::from_secs(60)).map_err(|e| e.to_string())
    };
    // Droid names a local marketplace after its folder.
    for args in [vec!["plugin", "marketplace", "add", clone.as_str()], vec!["plugin", "install", "guards@clone"]] {
        let (code, _, stdout, stderr) = droid(&args)?;
        ensure(code == Some(0), format!("droid {args:?}: exit {code:?}: {stdout}{stderr}"))?;
    }
    let cache = home.join(".factory/plugins/cache");
    let installed: Vec<PathBuf> = walkdir::WalkDir::new(&cache)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() == "hooks.json")
        .map(|e| e.into_path())
        .collect();
    ensure(installed.len() == 1, format!("Droid's installed hook documents: {installed:?}"))?;
    let document = std::fs::read_to_string(&installed[0]).map_err(|e| e.to_string())?;
    ensure(
        document.contains(".droid.mjs") && !document.contains(".claude.mjs"),
        format!("Droid installed another host's hooks: {document}"),
    )?;
    let root = installed[0].parent().and_then(Path::parent).ok_or("no plugin root")?;
    let manifest = read_json_file(&root.join(".factory-plugin/plugin.json"))?;
    ensure(manifest["name"] == "guards" && manifest["version"] == "1.0.0", format!("Droid's copy: {manifest}"))
}

fn read_json_file(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// canonical-tools (built for all five hosts) installed for every host install reaches, with the
/// real programs named by their variables and a fresh HOME; doctor observes each stage from the
/// hosts' own listings; uninstall leaves none of them listing it and none of agent-bundle's files.
fn install_doctor_uninstall(programs: &Programs) -> Result<(), String> {
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let artifact = build_into(Path::new("testdata/bundles/canonical-tools"), temp.path())?;
    let home = temp.path().join("home");
    std::fs::create_dir_all(home.join(".codex")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(&programs.copilot_cache).map_err(|e| e.to_string())?;
    let ours = |args: &[&str]| {
        let mut command = programs.offline_command(Path::new(env!("CARGO_BIN_EXE_cargo-agent-bundle")), &home);
        command.arg("agent-bundle").args(args).arg("--artifact").arg(&artifact);
        run_bounded(command, Duration::from_secs(300)).map_err(|e| e.to_string())
    };
    // The hosts' own configuration as the user has it before: a setting of theirs in Claude's
    // settings, and whatever the hosts write on a first `plugin list`.
    std::fs::create_dir_all(home.join(".claude")).map_err(|e| e.to_string())?;
    std::fs::write(home.join(".claude/settings.json"), "{\n  \"model\": \"sonnet\"\n}\n").map_err(|e| e.to_string())?;
    let host_list = |program: &Path| {
        let mut command = programs.offline_command(program, &home);
        command.args(["plugin", "list", "--json"]);
        run_bounded(command, Duration::from_secs(60)).map_err(|e| e.to_string())
    };
    for program in [&programs.claude, &programs.codex, &programs.copilot] {
        host_list(program)?;
    }
    let config_files = [
        ".claude/settings.json",
        ".claude/plugins/installed_plugins.json",
        ".claude/plugins/known_marketplaces.json",
        ".codex/config.toml",
        ".copilot/settings.json",
    ];
    let config = || -> Vec<(&str, Option<Vec<u8>>)> {
        config_files.iter().map(|f| (*f, std::fs::read(home.join(f)).ok())).collect()
    };
    let before = config();
    let (code, _, stdout, stderr) = ours(&["install"])?;
    ensure(code == Some(0), format!("install: exit {code:?}: {stdout}{stderr}"))?;
    ensure(config() != before, "install changed none of the hosts' files")?;
    ensure(
        stdout.contains("Installed canonical-tools for amp, claude, cline, codex, copilot, gemini, pi, qwen"),
        format!("install: {stdout}"),
    )?;
    let (code, _, stdout, stderr) = ours(&["install"])?;
    ensure(code == Some(0) && stdout.contains("nothing to do"), format!("second install: {stdout}{stderr}"))?;
    let (code, _, stdout, stderr) = ours(&["doctor", "--json"])?;
    ensure(code == Some(0), format!("doctor: exit {code:?}: {stdout}{stderr}"))?;
    let report: serde_json::Value = serde_json::from_str(&stdout).map_err(|e| format!("{e}: {stdout}"))?;
    for host in report["hosts"].as_array().into_iter().flatten() {
        let name = host["host"].as_str().unwrap_or_default();
        // Each stage observed by the host itself: its listing (and Claude's validator for loaded).
        // Pi lists only the packages its settings name, not the extension folders it loads, Cline
        // CLI lists no hook files, and Amp lists its plugins only through its service: doctor says
        // it cannot tell, rather than guess.
        for stage in ["placed", "registered", "enabled", "loaded"] {
            let expected = match (name, stage) {
                ("amp" | "pi" | "cline", "enabled" | "loaded") => "unavailable",
                _ => "yes",
            };
            ensure(host[stage]["state"] == expected, format!("{name} {stage}: {host}"))?;
        }
    }
    ensure(report["hosts"].as_array().map(Vec::len) == Some(8), format!("{report}"))?;
    let (code, _, stdout, stderr) = ours(&["uninstall"])?;
    ensure(code == Some(0), format!("uninstall: exit {code:?}: {stdout}{stderr}"))?;
    // The hosts' configuration is byte for byte what it was before install.
    for ((file, was), (_, is)) in before.iter().zip(config()) {
        let shown = |b: &Option<Vec<u8>>| {
            b.as_ref().map_or("(absent)".to_string(), |b| String::from_utf8_lossy(b).into_owned())
        };
        ensure(*was == is, format!("{file} before install: {} after uninstall: {}", shown(was), shown(&is)))?;
    }
    let (code, _, _, stderr) = ours(&["doctor"])?;
    ensure(code == Some(1) && stderr.contains("AB5206"), format!("doctor after uninstall: {stderr}"))?;
    // None of the hosts lists it any more; nothing of agent-bundle's is left in the home.
    for program in [&programs.claude, &programs.codex, &programs.copilot] {
        let (_, _, listed, _) = host_list(program)?;
        ensure(
            !listed.contains("agent-bundle-canonical-tools"),
            format!("{} still lists it: {listed}", program.display()),
        )?;
    }
    for gone in [
        ".local/share/agent-bundle/installs/canonical-tools",
        ".gemini/extensions/canonical-tools",
        ".qwen/extensions/canonical-tools",
        ".config/amp/plugins/canonical-tools",
        ".cline/hooks/agent-bundle",
        ".cline/hooks/PreToolUse.mjs",
        ".cline/hooks/PostToolUse.mjs",
    ] {
        ensure(!home.join(gone).exists(), format!("{gone} is left"))?;
    }
    Ok(())
}

/// One session on `host` with the plugin placed the harness's own way (`--plugin-dir`, a copied
/// folder, a marketplace it writes) or, with `installed`, by `cargo agent-bundle install`.
fn session(
    programs: &Programs,
    host: Host,
    artifact: &Path,
    plugin: &str,
    installed: bool,
    calls: Vec<Call>,
    claude_allowed_tools: Option<&str>,
) -> std::io::Result<HostRun> {
    let placement = if installed { Placement::AgentBundle } else { Placement::Manual };
    match host {
        // The hooks module is in Claude Code's plugin, installed and loaded as `claude`'s is.
        Host::Claude | Host::ClaudeMod => {
            let options = ClaudeOptions { allowed_tools: claude_allowed_tools, installed };
            run_claude(programs, artifact, calls, options, RUN_LIMIT)
        }
        Host::Codex => run_codex(programs, artifact, plugin, placement, calls, RUN_LIMIT),
        Host::Copilot => {
            let install = if installed { CopilotInstall::AgentBundle } else { CopilotInstall::PluginDir };
            run_copilot(programs, artifact, plugin, install, calls, RUN_LIMIT)
        }
        Host::Gemini => run_extension_host(&GEMINI, programs, artifact, plugin, placement, calls, RUN_LIMIT),
        Host::Qwen => run_extension_host(&QWEN, programs, artifact, plugin, placement, calls, RUN_LIMIT),
        Host::Opencode | Host::Kilo | Host::Pi | Host::Cline => {
            let placement = if installed { InProcessPlacement::Installed } else { InProcessPlacement::Manual };
            in_process_session(programs, host, artifact, plugin, placement, calls)
        }
        Host::Droid if installed => Err(std::io::Error::other("Factory Droid has no install yet")),
        Host::Droid => run_droid(programs, artifact, plugin, calls, RUN_LIMIT),
    }
}

/// A session of a host that loads the plugin into its own process, placed as `placement` says.
fn in_process_session(
    programs: &Programs,
    host: Host,
    artifact: &Path,
    plugin: &str,
    placement: InProcessPlacement,
    calls: Vec<Call>,
) -> std::io::Result<HostRun> {
    match host {
        Host::Opencode => run_opencode(programs, artifact, plugin, placement, calls, RUN_LIMIT),
        Host::Kilo => run_kilo(programs, artifact, plugin, placement, calls, RUN_LIMIT),
        Host::Pi => run_pi(programs, artifact, plugin, placement, calls, RUN_LIMIT),
        Host::Cline => run_cline(programs, artifact, placement, calls, RUN_LIMIT),
        _ => Err(std::io::Error::other(format!("{} runs no plugin in its own process", host.name()))),
    }
}

/// Copies a folder (the harness shares the integration tests' helper).
pub fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    common::copy_tree(from, to);
    Ok(())
}

/// Every bundle under testdata/ that builds: all but the deliberate mistakes of testdata/diagnostics
/// and testdata/types, and the monorepo's broken member.
fn testdata_bundles() -> Vec<PathBuf> {
    let found = agent_bundle::pipeline::discover::find_bundles(camino::Utf8Path::new("testdata"), &RealDisk)
        .unwrap_or_default();
    found
        .into_iter()
        .filter(|p| {
            !p.starts_with("testdata/diagnostics")
                && !p.starts_with("testdata/types")
                && !p.ends_with("tools/broken")
                && !p.ends_with("bundles/failing")
                && !p.as_str().contains("/.in-tree-")
        })
        .map(PathBuf::from)
        .collect()
}

struct Tally {
    passed: usize,
    failed: usize,
}

impl Tally {
    fn record(&mut self, name: &str, started: Instant, result: Result<(), String>) {
        let seconds = started.elapsed().as_secs_f32();
        match result {
            Ok(()) => {
                self.passed += 1;
                println!("ok   {name} ({seconds:.1} s)");
            }
            Err(why) => {
                self.failed += 1;
                println!("FAIL {name} ({seconds:.1} s): {why}");
            }
        }
    }
}

fn main() -> ExitCode {
    let filter = std::env::args().nth(1).unwrap_or_default();
    if filter == "--install-fixtures" {
        common::npm_fixture();
        common::pnpm_fixture();
        return ExitCode::SUCCESS;
    }
    let programs = match Programs::locate() {
        Ok(programs) => programs,
        Err(why) => {
            eprintln!("host_e2e: {why}");
            return ExitCode::from(2);
        }
    };
    let mut tally = Tally { passed: 0, failed: 0 };

    // `claude plugin validate --strict` on every artifact the testdata bundles produce, and on the
    // hooks module's form of two of them.
    for bundle in testdata_bundles() {
        let name = format!("claude plugin validate --strict: {}", bundle.display());
        if !name.contains(&filter) {
            continue;
        }
        let started = Instant::now();
        let result = validate(&programs, Host::Claude, &bundle, &[]);
        tally.record(&name, started, result);
    }
    for bundle in ["testdata/bundles/guards", "testdata/bundles/ported-guards"] {
        let name = format!("claude plugin validate --strict: {bundle} built for claude-mod");
        if !name.contains(&filter) {
            continue;
        }
        let started = Instant::now();
        let result = validate(&programs, Host::ClaudeMod, Path::new(bundle), &[]);
        tally.record(&name, started, result);
    }

    // `claude plugin test`: Claude Code's own engine runs the hooks module of a bundle built for
    // claude-mod on tests generated from the same bundle's command hooks (built for claude).
    for bundle in ["testdata/bundles/claude-mod", "testdata/bundles/guards"] {
        let name = format!("claude plugin test (tests generated from the command hooks): {bundle}");
        if !name.contains(&filter) {
            continue;
        }
        let started = Instant::now();
        let result =
            mod_tests::plugin_tests(&programs, Path::new(bundle)).map(|count| println!("  {count} generated tests"));
        tally.record(&name, started, result);
    }

    // The Claude plugin directory's own checks on the showcase, which ships a README, a license and an icon.
    let name = "claude plugin validate --strict --profile directory: testdata/bundles/showcase";
    if name.contains(&filter) {
        let started = Instant::now();
        let result =
            validate(&programs, Host::Claude, Path::new("testdata/bundles/showcase"), &["--profile", "directory"]);
        tally.record(name, started, result);
    }

    // The catalogs `build` writes for a repository of plugins (issue 26): Claude's validator passes
    // them under --strict, and Claude Code installs a plugin straight from them.
    let name = "marketplace catalogs committed and cloned: build --check, claude validate --strict and install, copilot install, droid install of its own folder";
    if name.contains(&filter) {
        let started = Instant::now();
        let result = marketplace_catalog(&programs);
        tally.record(name, started, result);
    }

    // Amp's plugin side, the part of Amp that runs offline (issue 48): the artifact's plugin in Amp's
    // own plugin runtime, and found where install puts it.
    let name = "amp: the artifact's plugin answers in Amp's own plugin runtime (guards, rewrite, after-tool context, stop re-entry) and `amp plugins list` finds it where install puts it";
    if name.contains(&filter) {
        let started = Instant::now();
        let result = amp::plugin_in_amps_runtime(&programs);
        tally.record(name, started, result);
    }

    // `install`, `doctor` and `uninstall` through the real host programs (issue 26).
    let name = "install, doctor, uninstall: claude, codex, copilot through their programs, gemini's, qwen's, pi's, cline's and amp's folders; each stage observed";
    if name.contains(&filter) {
        let started = Instant::now();
        let result = install_doctor_uninstall(&programs);
        tally.record(name, started, result);
    }

    // On Windows programs, under Wine (D17): every wrapper as its host's Windows form runs it, and
    // the hosts' own Windows builds.
    let wine = windows::Wine::locate();
    let windows_checks: [(&str, windows::WindowsCheck); 3] = [
        (
            "windows: the stand-in DLL supplies ProcessPrng and Windows' error for an unlock of nothing locked, and nothing else",
            windows::the_standin_supplies_what_wine_lacks,
        ),
        (
            "windows: every wrapper of testdata/bundles, run by Windows Node through its host's Windows form, answers as on Linux",
            windows::wrappers_answer_as_on_linux,
        ),
        (
            "windows: claude's loader finds the wrapper from every form of the root; main's old POSIX forms lose the denial in cmd.exe",
            windows::claude_finds_its_wrapper_from_every_root,
        ),
    ];
    for (name, check) in windows_checks {
        if name.contains(&filter) {
            let started = Instant::now();
            let result = wine.as_ref().map_err(Clone::clone).and_then(check);
            tally.record(name, started, result);
        }
    }
    for scenario in windows::scenarios() {
        for &host in scenario.hosts {
            let name = format!("{} {}", host.name(), scenario.name);
            if !name.contains(&filter) {
                continue;
            }
            let started = Instant::now();
            let result = wine.as_ref().map_err(Clone::clone).and_then(|wine| {
                let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
                let artifact = build_into(&Path::new("testdata").join(scenario.bundle), temp.path())?;
                let utf8 = camino::Utf8Path::from_path(&artifact).ok_or("the artifact path is not UTF-8")?;
                let plugin =
                    agent_bundle::artifact::read_verified(utf8, &RealDisk).map_err(|e| e.to_string())?.plugin.name;
                let start = || match host {
                    windows::WindowsHost::Codex => {
                        windows::run_codex_windows(wine, &artifact, &plugin, (scenario.calls)())
                    }
                    windows::WindowsHost::Claude => {
                        windows::run_claude_windows(wine, &artifact, &plugin, (scenario.calls)())
                    }
                };
                let mut run = start().map_err(|e| e.to_string())?;
                // Wine itself, not the host, now and then loses a process's connection to its
                // wineserver under load; that run says nothing of the plugin, so it runs once more.
                if windows::wine_lost_the_process(&run) {
                    println!("  Wine lost the host's process ({}); the session was run once more", run.summary());
                    run = start().map_err(|e| e.to_string())?;
                }
                (scenario.check)(host, &run).map_err(|why| format!("{why} [{}]", run.summary()))
            });
            tally.record(&name, started, result);
        }
    }

    for scenario in scenarios() {
        for &host in scenario.hosts {
            let name = format!("{} {}", host.name(), scenario.name);
            if !name.contains(&filter) {
                continue;
            }
            let started = Instant::now();
            let result = (|| {
                let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
                let bundle = Path::new("testdata").join(scenario.bundle);
                let artifact = build_for(host, &bundle, temp.path())?;
                let manifest = agent_bundle::artifact::read_verified(
                    camino::Utf8Path::from_path(&artifact).ok_or("the artifact path is not UTF-8")?,
                    &RealDisk,
                )
                .map_err(|e| e.to_string())?;
                let plugin = manifest.plugin.name;
                let _prompt = hosts::with_prompt(scenario.prompt.map(|prompt| prompt(host)));
                let run = session(
                    &programs,
                    host,
                    &artifact,
                    &plugin,
                    false,
                    (scenario.calls)(),
                    scenario.claude_allowed_tools,
                )
                .map_err(|e| e.to_string())?;
                (scenario.check)(host, &run).map_err(|why| format!("{why} [{}]", run.summary()))
            })();
            tally.record(&name, started, result);
        }
    }

    // One process per call (issue 46, D18), differentially: the same bundle built with one command
    // per call and with a command per hook, the same sessions, the same host behaviour.
    for host in [Host::Claude, Host::Codex, Host::Copilot, Host::Gemini, Host::Qwen, Host::Droid] {
        for (what, calls) in [
            ("a denied call", (|| vec![Call::Shell(format!("echo E2E_GO_AWAY > {MARKER}"))]) as fn() -> Vec<Call>),
            ("a call that runs", shell_marker),
        ] {
            let name = format!(
                "{} combined commands, {what}: the same session as with a command per hook (tools run, requests)",
                host.name()
            );
            if !name.contains(&filter) {
                continue;
            }
            let started = Instant::now();
            let result = combined_against_separate(&programs, host, calls);
            tally.record(&name, started, result);
        }
    }

    // What Claude Code does with a plugin's `mcp_tool` hook (issue 46, item 2), written into the
    // built plugin's document: named `plugin:<plugin>:<server>`, the plugin's own server is called
    // with the input interpolated and its answer denies as a command's would; named any other way,
    // the server is "not connected" and the call runs (the hook fails open).
    for (server, reaches) in [("plugin:e2e-mcp-tool-hook:docs", true), ("docs", false)] {
        let name = format!(
            "claude mcp_tool hook naming the server {server}: the plugin's server is {}called",
            if reaches { "" } else { "not " }
        );
        if !name.contains(&filter) {
            continue;
        }
        let started = Instant::now();
        let result = mcp_tool_hook(&programs, server, reaches);
        tally.record(&name, started, result);
    }

    // Two sessions of one install at once (Claude Desktop runs every session from one plugin folder):
    // the second session's MCP server must stand by, not exit, and both sessions' guards must answer.
    let name = "claude two concurrent sessions of one install: both MCP servers connect, both shared routes deny";
    if name.contains(&filter) {
        let started = Instant::now();
        let result = (|| {
            let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
            let artifact = build_into(Path::new("testdata/e2e/route-shared-deny"), temp.path())?;
            let runs: Vec<Result<HostRun, String>> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..2)
                    .map(|_| {
                        let (programs, artifact) = (&programs, &artifact);
                        scope.spawn(move || {
                            run_claude(
                                programs,
                                artifact,
                                shell_marker(),
                                ClaudeOptions { allowed_tools: Some("Bash"), installed: false },
                                RUN_LIMIT,
                            )
                            .map_err(|e| e.to_string())
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a session thread")).collect()
            });
            for (index, run) in runs.into_iter().enumerate() {
                let run = run?;
                let session = index + 1;
                finished(&run).map_err(|why| format!("session {session}: {why}"))?;
                ensure(
                    run.stdout.contains(
                        r#""name":"plugin:e2e-route-shared-deny:e2e-route-shared-deny-runtime","status":"connected""#,
                    ),
                    format!("session {session}: its MCP server did not connect"),
                )?;
                ensure(!exists(&run, MARKER), format!("session {session}: the denied command ran"))?;
                ensure(
                    run.any_request_contains("E2E_SHARED_DENY ("),
                    format!("session {session}: no request carried the reason"),
                )?;
            }
            Ok(())
        })();
        tally.record(name, started, result);
    }

    // Copilot from a local marketplace, the way a user installs a plugin for good.
    let name = "copilot installed from a local marketplace: beforeTool deny blocks the command";
    if name.contains(&filter) {
        let started = Instant::now();
        let result = (|| {
            let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
            let artifact = build_into(Path::new("testdata/e2e/deny-shell"), temp.path())?;
            let run = run_copilot(
                &programs,
                &artifact,
                "e2e-deny-shell",
                CopilotInstall::Marketplace,
                shell_marker(),
                RUN_LIMIT,
            )
            .map_err(|e| e.to_string())?;
            finished(&run)?;
            ensure(!exists(&run, MARKER), "the denied command ran")?;
            ensure(run.any_request_contains("E2E_DENY_REASON"), "no model request carried the denial reason")
        })();
        tally.record(name, started, result);
    }

    // Each host with the plugin installed for good by `cargo agent-bundle install` (no --plugin-dir,
    // no hand-made marketplace or copied folder): a session's denial blocks the command.
    let installed = [
        Host::Claude,
        Host::ClaudeMod,
        Host::Codex,
        Host::Copilot,
        Host::Gemini,
        Host::Qwen,
        Host::Opencode,
        Host::Kilo,
        Host::Pi,
        Host::Cline,
    ];
    for host in installed {
        let name =
            format!("{} installed by cargo agent-bundle install: beforeTool deny blocks the command", host.name());
        if !name.contains(&filter) {
            continue;
        }
        let started = Instant::now();
        let result = (|| {
            let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
            let artifact = build_for(host, Path::new("testdata/e2e/deny-shell"), temp.path())?;
            let run = session(&programs, host, &artifact, "e2e-deny-shell", true, shell_marker(), Some("Bash"))
                .map_err(|e| e.to_string())?;
            finished(&run)?;
            ensure(!exists(&run, MARKER), "the denied command ran")?;
            denied_with(host, &run, "E2E_DENY_REASON")?;
            // Installed in Claude Code's hooks module's form, the guard runs in the module: no command.
            let commands = run.stdout.matches(r#""hook_event":"PreToolUse""#).count();
            match host {
                Host::ClaudeMod => ensure(commands == 0, "Claude Code ran the guard as a command hook"),
                Host::Claude => ensure(commands > 0, "Claude Code ran no PreToolUse command hook"),
                _ => Ok(()),
            }
        })();
        tally.record(&name, started, result);
    }

    // Each in-process host's project folder, where `cargo agent-bundle install --scope project` places
    // the plugin: OpenCode's `.opencode/plugins/` (its other way of finding one), Kilo's `.kilo/plugins/`
    // (it does not load `.opencode/`), Pi's `.pi/extensions/`.
    let in_projects = [
        (Host::Opencode, ".opencode/plugins/"),
        (Host::Kilo, ".kilo/plugins/"),
        (Host::Pi, ".pi/extensions/"),
        (Host::Cline, ".clinerules/hooks/"),
    ];
    for (host, folder) in in_projects {
        let name = format!(
            "{} installed by cargo agent-bundle install --scope project ({folder}): beforeTool deny blocks the command",
            host.name()
        );
        if !name.contains(&filter) {
            continue;
        }
        let started = Instant::now();
        let result = (|| {
            let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
            let artifact = build_for(host, Path::new("testdata/e2e/deny-shell"), temp.path())?;
            let placement = InProcessPlacement::InstalledInProject;
            let run = in_process_session(&programs, host, &artifact, "e2e-deny-shell", placement, shell_marker())
                .map_err(|e| e.to_string())?;
            finished(&run)?;
            ensure(!exists(&run, MARKER), "the denied command ran")?;
            denied_with(host, &run, "E2E_DENY_REASON")
        })();
        tally.record(&name, started, result);
    }

    // Control: Kilo does not load the project's `.opencode/` folder (where OpenCode's project install
    // puts the plugin), which is why `install --host kilo` places it in `.kilo/plugins/`.
    let name = "kilo control: the plugin installed in the project for OpenCode (.opencode/plugins/) is not loaded: the command runs";
    if name.contains(&filter) {
        let started = Instant::now();
        let result = (|| {
            let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
            let artifact = build_for(Host::Kilo, Path::new("testdata/e2e/deny-shell"), temp.path())?;
            let placement = InProcessPlacement::InstalledInProjectFor("opencode");
            let run = run_kilo(&programs, &artifact, "e2e-deny-shell", placement, shell_marker(), RUN_LIMIT)
                .map_err(|e| e.to_string())?;
            finished(&run)?;
            ensure(run.work.join(".opencode/plugins/e2e-deny-shell.js").is_file(), "the install placed nothing")?;
            ensure(exists(&run, MARKER), "the command was denied: Kilo loaded .opencode/, update its table")
        })();
        tally.record(name, started, result);
    }

    println!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
