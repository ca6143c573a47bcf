//! What a hook costs per tool call in a host that runs it in its own process (OpenCode), against the
//! same hook as a command (issue 27): one dependency-free afterTool handler built for Claude Code and
//! OpenCode, run from a copy of the artifact with no node_modules above it. Prints, from this one run:
//!
//!   * the command hook: `node` started on the Claude wrapper with the envelope on stdin, to its
//!     answer (the whole process, as the host pays it on every call);
//!   * in process: OpenCode's entry module (`opencode/plugin.mjs`) loaded once in one node process,
//!     then its `tool.execute.after` called for one tool call at a time, timed inside node (the
//!     validation, the handler, the result checks and the projection, with no process);
//!   * the first call in process (it imports the wrapper module and the handler's bundle);
//!   * in Claude Code's hooks module (`claude-mod`): the same hook registered by the artifact's
//!     `hooks/agent-bundle-mod.mjs` (the bundle built for `claude-mod`), timed by Claude Code 2.1.332's own engine under
//!     `claude plugin test` (a `$.tool.call` at a time through the plugin's hooks, to the tool's
//!     answer), beside a plugin whose one hook only passes the call on: the engine's own cost of a
//!     tool call through a hooks module, which agent-bundle's hook adds to. Needs the Claude Code that
//!     `scripts/host-e2e.sh` installs (`AGENT_BUNDLE_HOSTS_DIR`, else ~/.cache/agent-bundle-hosts);
//!     without it that row says so.
//!
//! Asserts nothing.
//!
//!   cargo bench --bench in_process -- [RUNS]      (default 40 command starts, 100 × RUNS calls)

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

use agent_bundle::io::RealDisk;
use agent_bundle::vocabulary::target::Target;

#[allow(dead_code, reason = "shared with tests/it, which uses all of it; this uses a part")]
#[path = "../tests/it/common/mod.rs"]
mod common;

const HANDLER: &str =
    "export default (event: { toolName: string }) => ({ additionalContext: `ran ${event.toolName}` });\n";

const ENVELOPE: &str = r#"{"cwd":"/w","hook_event_name":"PostToolUse","session_id":"s","tool_input":{"command":"ls"},"tool_name":"Bash","tool_response":{"stdout":""},"tool_use_id":"t","transcript_path":"/t.jsonl"}"#;

/// Loads the entry module, makes the plugin, and times `calls` calls of `tool.execute.after` (after
/// one first call, timed apart); prints the first call's ms, then the median and p90 per call.
const IN_PROCESS: &str = r#"
import { pathToFileURL } from 'node:url';
const [plugin, calls] = [process.argv[2], Number(process.argv[3])];
const { AgentBundle } = await import(pathToFileURL(plugin).href);
const hooks = await AgentBundle({ directory: '/w' });
const call = async () => {
  const output = { title: 'ls', output: '', metadata: { exit: 0 } };
  const started = performance.now();
  await hooks['tool.execute.after']({ tool: 'bash', sessionID: 's', callID: 'c', args: { command: 'ls' } }, output);
  const took = performance.now() - started;
  if (!output.output.includes('ran bash')) throw new Error(`no context: ${JSON.stringify(output)}`);
  return took;
};
const first = await call();
const times = [];
for (let i = 0; i < calls; i++) times.push(await call());
times.sort((a, b) => a - b);
process.stdout.write(`${first} ${times[Math.floor(times.length / 2)]} ${times[Math.floor(times.length * 0.9)]}\n`);
"#;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let runs: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(40);
    let (away, artifact) = common::one_handler_artifact(
        "plain.ts",
        HANDLER,
        "export default {\n  hooks: { afterTool: { handler: './src/hooks/plain.ts', tools: ['shell'] } },\n  plugin: { name: 'bench', description: 'Benchmark.', version: '1.0.0' },\n  targets: ['claude', 'opencode'],\n};\n",
    );
    // The same hook in Claude Code's hooks module: the other form of Claude Code's plugin, built apart.
    let (_module_away, module_artifact) = common::one_handler_artifact(
        "plain.ts",
        HANDLER,
        "export default {\n  hooks: { afterTool: { handler: './src/hooks/plain.ts', tools: ['shell'] } },\n  plugin: { name: 'bench', description: 'Benchmark.', version: '1.0.0' },\n  targets: ['claude-mod'],\n};\n",
    );
    let manifest =
        agent_bundle::artifact::read_verified(camino::Utf8Path::from_path(&artifact).unwrap(), &RealDisk).unwrap();
    let claude = manifest.hooks.iter().find(|r| r.host == Target::Claude).unwrap();
    let wrapper = artifact.join(&claude.path);
    std::fs::write(away.path().join("in-process.mjs"), IN_PROCESS).unwrap();

    let node = Command::new("node").arg("--version").output().unwrap();
    println!(
        "agent-bundle in-process benchmark: one afterTool hook, {runs} command starts, {} calls in process, node {}",
        runs * 100,
        String::from_utf8_lossy(&node.stdout).trim()
    );
    let mut starts = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        let mut child = Command::new("node")
            .arg(&wrapper)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(ENVELOPE.as_bytes()).unwrap();
        let output = child.wait_with_output().unwrap();
        starts.push(started.elapsed().as_secs_f64() * 1000.0);
        assert!(String::from_utf8_lossy(&output.stdout).contains("ran Bash"), "{output:?}");
    }
    starts.sort_by(f64::total_cmp);
    let (command, command_p90) = (starts[runs / 2], starts[runs * 9 / 10]);
    let output = Command::new("node")
        .arg(away.path().join("in-process.mjs"))
        .arg(artifact.join("opencode/plugin.mjs"))
        .arg((runs * 100).to_string())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let figures: Vec<f64> =
        String::from_utf8_lossy(&output.stdout).split_whitespace().map(|f| f.parse().unwrap()).collect();
    let (first, median, p90) = (figures[0], figures[1], figures[2]);
    println!();
    println!("per tool call, envelope to answer (median ms; p90 in brackets)");
    println!("{:<44} {:>10.3} [{command_p90:.3}]", "command hook (node on the Claude wrapper)", command);
    println!(
        "{:<44} {:>10.3} [{p90:.3}] {:>9.4} of the command hook",
        "in process (OpenCode's entry module)",
        median,
        median / command
    );
    println!("{:<44} {:>10.3}", "in process, first call (imports)", first);
    claude_mod_rows(&module_artifact, runs * 100, command);
}

/// Times `calls` tool calls through a plugin's hooks module in Claude Code's engine; its test prints
/// the first call's ms, the median and the p90.
fn timing_test(calls: usize, expect_context: bool) -> String {
    let check = if expect_context {
        "if (!(r.context ?? []).some((c) => c.includes('ran Bash'))) throw new Error('no context: ' + JSON.stringify(r))"
    } else {
        "if (r.deny !== undefined) throw new Error('denied: ' + JSON.stringify(r))"
    };
    format!(
        "import {{ test }} from 'claude-code/testing'\n\
         test('timing', async ($, on) => {{\n\
           on('session.id', () => ({{ value: 'bench' }}))\n\
           on('session.cwd', () => ({{ value: '/w' }}))\n\
           on('session.info', () => ({{ value: {{ transcriptPath: '/t.jsonl' }} }}))\n\
           on('ui.log', () => ({{ value: undefined }}))\n\
           on('tool.call', () => ({{ result: {{ stdout: '' }} }}))\n\
           const call = async () => {{ const t = performance.now(); const r = await $.tool.call({{ tool: 'Bash', command: 'ls' }}); const took = performance.now() - t; {check}; return took }}\n\
           const first = await call()\n\
           const times = []\n\
           for (let i = 0; i < {calls}; i++) times.push(await call())\n\
           times.sort((a, b) => a - b)\n\
           console.log(`TIMING ${{first}} ${{times[Math.floor(times.length / 2)]}} ${{times[Math.floor(times.length * 0.9)]}}`)\n\
         }})\n"
    )
}

/// The hooks-module rows: agent-bundle's module and a pass-through module, in Claude Code's engine.
fn claude_mod_rows(artifact: &std::path::Path, calls: usize, command: f64) {
    let hosts = std::env::var_os("AGENT_BUNDLE_HOSTS_DIR")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".cache/agent-bundle-hosts")));
    let claude =
        hosts.map(|d| d.join("node_modules/@anthropic-ai/claude-code-linux-x64/claude")).filter(|c| c.is_file());
    let Some(claude) = claude else {
        println!(
            "{:<44} Claude Code 2.1.332 is not installed: run scripts/host-e2e.sh once to time it",
            "in Claude Code's hooks module"
        );
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let ours = work.path().join("ours");
    common::copy_tree(artifact, &ours);
    std::fs::create_dir_all(ours.join("tests")).unwrap();
    std::fs::write(ours.join("tests/timing.test.ts"), timing_test(calls, true)).unwrap();
    let bare = work.path().join("bare");
    std::fs::create_dir_all(bare.join(".claude-plugin")).unwrap();
    std::fs::create_dir_all(bare.join("hooks")).unwrap();
    std::fs::create_dir_all(bare.join("tests")).unwrap();
    std::fs::write(
        bare.join(".claude-plugin/plugin.json"),
        r#"{"name":"bare","version":"1.0.0","description":"Passes every call on."}"#,
    )
    .unwrap();
    std::fs::write(bare.join("hooks/hooks.json"), r#"{"modules":["./register.mjs"]}"#).unwrap();
    std::fs::write(
        bare.join("hooks/register.mjs"),
        "export const register = (on) => {\n  on('tool.call', ($, e, next) => next(e));\n};\n",
    )
    .unwrap();
    std::fs::write(bare.join("tests/timing.test.ts"), timing_test(calls, false)).unwrap();
    let home = work.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let time = |plugin: &std::path::Path| -> [f64; 3] {
        let output = Command::new(&claude)
            .env_clear()
            .env("HOME", &home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .args(["plugin", "test"])
            .arg(plugin)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout).to_string() + &String::from_utf8_lossy(&output.stderr);
        let line = text.lines().find_map(|l| l.split_once("TIMING ").map(|(_, f)| f.to_string()));
        let line = line.unwrap_or_else(|| panic!("claude plugin test printed no timing: {text}"));
        let figures: Vec<f64> = line.split_whitespace().map(|f| f.parse().unwrap()).collect();
        [figures[0], figures[1], figures[2]]
    };
    let [_, bare_median, bare_p90] = time(&bare);
    let [first, median, p90] = time(&ours);
    println!(
        "{:<44} {:>10.3} [{p90:.3}] {:>9.4} of the command hook",
        "in Claude Code's hooks module (claude-mod)",
        median,
        median / command
    );
    println!("{:<44} {:>10.3} [{bare_p90:.3}]", "  of which the engine (a pass-through hook)", bare_median);
    println!("{:<44} {:>10.3}", "  hooks module, first call", first);
}
