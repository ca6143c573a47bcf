//! What each form of a hook's command costs per tool call (issue 42, D16): one beforeTool guard built
//! for Claude Code and Codex, run from a copy of the artifact with no node_modules above it, the
//! envelope on stdin to the answer, as the host pays it on every call. Prints, from this one run, the
//! median and p90 of:
//!
//!   * node on the wrapper, nothing else (the floor every form pays);
//!   * Claude Code's exec form (`node -e <loader> <wrapper>`: no shell; every system);
//!   * Claude Code's command before it (`bash -c 'node "<wrapper>" 3>&1 1>&2'`: a shell, then node);
//!   * Codex's POSIX command (`$SHELL -lc "sh -c 'exec node \"$1\" 3>&1 1>&2' sh <wrapper>"`, here with
//!     `sh` as the login shell).
//!
//! Asserts nothing but that every form denies.
//!
//!   cargo bench --bench command_forms -- [RUNS]      (default 40 runs of each form)

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

use agent_bundle::io::RealDisk;
use agent_bundle::vocabulary::target::Target;

#[allow(dead_code, reason = "shared with tests/it, which uses all of it; this uses a part")]
#[path = "../tests/it/common/mod.rs"]
mod common;

const HANDLER: &str = "export default (event: { tool: { command?: string } }) =>\n  \
    event.tool.command?.includes('rm -rf') ? { outcome: 'deny', reason: 'no' } : undefined;\n";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let runs: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(40);
    let (_away, artifact) = common::one_handler_artifact(
        "guard.ts",
        HANDLER,
        "export default {\n  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['shell'] } },\n  plugin: { name: 'bench', description: 'Benchmark.', version: '1.0.0' },\n  targets: ['claude', 'codex'],\n};\n",
    );
    let manifest =
        agent_bundle::artifact::read_verified(camino::Utf8Path::from_path(&artifact).unwrap(), &RealDisk).unwrap();
    let row = |target: Target| manifest.hooks.iter().find(|r| r.host == target).unwrap().clone();
    let (claude, codex) = (row(Target::Claude), row(Target::Codex));
    let claude_wrapper = artifact.join(&claude.path).display().to_string();
    let codex_wrapper = artifact.join(&codex.path).display().to_string();
    let envelope = |row: &agent_bundle::artifact::IndexRow| {
        common::envelope_with(row, serde_json::json!({ "toolName": "Bash", "toolInput": { "command": "rm -rf /" } }))
            .to_string()
    };
    let forms: Vec<(&str, Command, String)> = vec![
        ("node on the wrapper (the floor)", node(&[&claude_wrapper]), envelope(&claude)),
        (
            "Claude Code: exec form, node -e <loader> <wrapper>",
            node(&["-e", agent_bundle::pipeline::plan::LOADER, &claude_wrapper]),
            envelope(&claude),
        ),
        (
            "Claude Code before: bash -c 'node … 3>&1 1>&2'",
            shell("bash", &format!("node \"{claude_wrapper}\" 3>&1 1>&2")),
            envelope(&claude),
        ),
        (
            "Codex: sh -c 'sh -c \"exec node …\" …'",
            shell("sh", &format!("sh -c 'exec node \"$1\" 3>&1 1>&2' sh \"{codex_wrapper}\"")),
            envelope(&codex),
        ),
    ];
    let version = Command::new("node").arg("--version").output().unwrap();
    println!(
        "agent-bundle command-form benchmark: one beforeTool guard, {runs} runs of each form, node {}",
        String::from_utf8_lossy(&version.stdout).trim()
    );
    println!("per tool call, envelope to answer (median ms; p90 in brackets; ratio to the floor)");
    let mut floor = None;
    for (name, mut command, stdin) in forms {
        let mut times = Vec::with_capacity(runs);
        for _ in 0..runs {
            let started = Instant::now();
            let mut child =
                command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
            child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
            let output = child.wait_with_output().unwrap();
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert!(stdout.contains("\"deny\""), "{name}: {stdout} {}", String::from_utf8_lossy(&output.stderr));
        }
        times.sort_by(f64::total_cmp);
        let (median, p90) = (times[runs / 2], times[runs * 9 / 10]);
        let base = *floor.get_or_insert(median);
        println!("{name:<52} {median:>8.1} [{p90:.1}]  ×{:.2}", median / base);
    }
}

fn node(args: &[&str]) -> Command {
    let mut command = Command::new("node");
    command.args(args);
    command
}

fn shell(program: &str, line: &str) -> Command {
    let mut command = Command::new(program);
    command.arg("-c").arg(line);
    command
}
