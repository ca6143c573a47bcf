//! The bundling benchmark (issue 9): handlers importing lodash-es, date-fns and zod, and a
//! dependency-free one, built by agent-bundle and by esbuild, then run from a folder with no
//! node_modules above it. Prints, as ratios measured in this one run:
//!
//!   * bytes per hook: agent-bundle's bundle (and its source map) against esbuild's bundle of the
//!     same handler (same target, format and platform; neither minified);
//!   * start-up, stdin to answer: the real wrapper (envelope checks, handler, result checks, the
//!     host's answer) against an esbuild bundle of a bare runner around the same handler, and for
//!     the dependency-free handler also against a `node` that only reads stdin and answers;
//!   * start-up of an event route (`src/events/tool/after.tsx`, rendering the same context with
//!     `<Agent.Context>`) against the dependency-free config hook: what JSX and the canonical props
//!     (idempotency key, frozen copies) cost on every call;
//!   * the same route rendered in the shared runtime (`src/events/tool/before.tsx`, `runtime:
//!     'shared'`, its MCP server started once) against it standalone: what forwarding costs;
//!   * one file against an entry and the chunk it shares (esbuild's bundle of the zod handler, whole
//!     and split), the import timed inside node: what folding each entry with its chunks saves at
//!     every start-up;
//!   * the dependency-free hook started as its host starts it, the command of its hook document
//!     through `bash -c` (`node "…" 3>&1 1>&2`: the answer on fd 3, fd 1 the host's stderr), and in
//!     the form for hosts whose shell need not be POSIX (`sh -c 'exec node "$1" 3>&1 1>&2' sh "…"`),
//!     against `node` on the wrapper (no handover: the answer on fd 1): what the handover costs.
//!
//! Runs alternate between the commands compared, so drift in the machine's load hits all alike.
//! Asserts nothing.
//!
//!   cargo bench --bench bundling -- [RUNS]      (default 40 start-ups per command)

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use agent_bundle::driver::{BuildOptions, build};
use agent_bundle::io::RealDisk;
use camino::Utf8PathBuf;

#[allow(dead_code, reason = "shared with tests/it, which uses all of it; this uses a part")]
#[path = "../tests/it/common/mod.rs"]
mod common;

// The allocator `cargo agent-bundle` runs with.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const HANDLERS: &[(&str, &str)] = &[
    ("plain", "export default (event: { toolName: string }) => ({ additionalContext: `ran ${event.toolName}` });\n"),
    (
        "lodash-es",
        "import { kebabCase } from 'lodash-es';\n\nexport default (event: { toolName: string }) => ({ additionalContext: kebabCase(`${event.toolName} Tool Ran`) });\n",
    ),
    (
        "date-fns",
        "import { addDays, format } from 'date-fns';\n\nexport default (event: { toolName: string }) => ({ additionalContext: `${event.toolName} ${format(addDays(new Date(2026, 10, 30), 1), 'yyyy-MM-dd')}` });\n",
    ),
    (
        "zod",
        "import { z } from 'zod';\n\nconst Input = z.object({ command: z.string().min(1) });\n\nexport default (event: { toolInput: unknown }) => {\n  const parsed = Input.safeParse(event.toolInput);\n  return { additionalContext: parsed.success ? parsed.data.command : 'invalid' };\n};\n",
    ),
];

const ENVELOPE: &str = r#"{"cwd":"/w","hook_event_name":"PostToolUse","session_id":"s","tool_input":{"command":"ls"},"tool_name":"Bash","tool_response":{"stdout":""},"tool_use_id":"t","transcript_path":"/t.jsonl"}"#;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let runs: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(40);
    let packages = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/packages");
    common::npm_installed(camino::Utf8Path::from_path(&packages).unwrap());

    // The bundle lives beside the installed packages, as a plugin author's would.
    let work = tempfile::Builder::new().prefix(".bench-").tempdir_in(&packages).unwrap();
    let bundle = work.path().join("bundle");
    std::fs::create_dir_all(bundle.join("src/hooks")).unwrap();
    let mut entries = String::new();
    for (name, source) in HANDLERS {
        std::fs::write(bundle.join(format!("src/hooks/{name}.ts")), source).unwrap();
        std::fs::write(bundle.join(format!("src/runner-{name}.ts")), runner(name)).unwrap();
        entries.push_str(&format!("      {{ handler: './src/hooks/{name}.ts', tools: ['shell'] }},\n"));
    }
    std::fs::write(
        bundle.join("agent-bundle.config.ts"),
        format!(
            "export default {{\n  hooks: {{ afterTool: [\n{entries}  ] }},\n  plugin: {{ name: 'bench', description: 'Benchmark.', version: '1.0.0', author: 'bench' }},\n  targets: ['claude'],\n}};\n"
        ),
    )
    .unwrap();
    std::fs::write(work.path().join("bare.mjs"), BARE).unwrap();
    std::fs::create_dir_all(bundle.join("src/events/tool")).unwrap();
    std::fs::write(bundle.join("src/events/tool/after.tsx"), ROUTE).unwrap();
    std::fs::write(bundle.join("src/events/tool/before.tsx"), SHARED_ROUTE).unwrap();

    let artifact = work.path().join("artifact");
    let started = Instant::now();
    let options = BuildOptions {
        root: Utf8PathBuf::from_path_buf(bundle.clone()).unwrap(),
        output: Some(Utf8PathBuf::from_path_buf(artifact.clone()).unwrap()),
        no_cache: true,
        ..Default::default()
    };
    let report = build(&options, &RealDisk).unwrap();
    assert!(!report.has_errors(), "{:?}", report.diagnostics());
    let build_ms = started.elapsed().as_secs_f64() * 1000.0;

    let esbuild = packages.join("node_modules/.bin/esbuild");
    let out = work.path().join("esbuild");
    for (name, _) in HANDLERS {
        for (entry, file, extra) in [
            (format!("src/hooks/{name}.ts"), format!("{name}.mjs"), vec![]),
            (format!("src/hooks/{name}.ts"), format!("{name}.map.mjs"), vec!["--sourcemap"]),
            (format!("src/runner-{name}.ts"), format!("runner-{name}.mjs"), vec![]),
        ] {
            let status = Command::new(&esbuild)
                .arg(bundle.join(entry))
                .args(["--bundle", "--platform=node", "--format=esm", "--target=node18", "--log-level=error"])
                .args(extra)
                .arg(format!("--outfile={}", out.join(file).display()))
                .status()
                .unwrap();
            assert!(status.success());
        }
    }

    // Run everything from a folder with no node_modules above it.
    let away = tempfile::tempdir().unwrap();
    common::copy_tree(&artifact, &away.path().join("artifact"));
    common::copy_tree(&out, &away.path().join("esbuild"));
    std::fs::copy(work.path().join("bare.mjs"), away.path().join("bare.mjs")).unwrap();
    let artifact = away.path().join("artifact");
    let out = away.path().join("esbuild");
    let manifest =
        agent_bundle::artifact::read_verified(camino::Utf8Path::from_path(&artifact).unwrap(), &RealDisk).unwrap();
    let wrapper_of = |name: &str| {
        let row = manifest.hooks.iter().find(|r| r.name.contains(&format!("-{name}-"))).unwrap();
        artifact.join(&row.path)
    };
    let size = |path: &Path| std::fs::metadata(path).unwrap().len();

    println!(
        "agent-bundle bundling benchmark: {} handlers, {runs} start-ups per command, node {}",
        HANDLERS.len(),
        node_version()
    );
    println!("build of all {} handlers (rolldown, release): {build_ms:.1} ms", HANDLERS.len());
    println!();
    println!("bytes per hook (handler bundle; wrapper and runtime listed separately)");
    println!(
        "{:<10} {:>12} {:>12} {:>12} {:>8} {:>14} {:>8}",
        "handler", "agent-bundle", "esbuild", "x esbuild", "", "with maps", "x esbuild"
    );
    let runtime = size(&artifact.join("hooks/agent-bundle-runtime.mjs"));
    for (name, _) in HANDLERS {
        let ours = size(&artifact.join(format!("hooks/handlers/src/hooks/{name}.mjs")));
        let our_map = size(&artifact.join(format!("hooks/handlers/src/hooks/{name}.mjs.map")));
        let theirs = size(&out.join(format!("{name}.mjs")));
        let their_map = size(&out.join(format!("{name}.map.mjs"))) + size(&out.join(format!("{name}.map.mjs.map")));
        println!(
            "{name:<10} {ours:>12} {theirs:>12} {:>12.2} {:>8} {:>14} {:>8.2}",
            ours as f64 / theirs as f64,
            "",
            ours + our_map,
            (ours + our_map) as f64 / their_map as f64
        );
    }
    println!(
        "(each hook also has its wrapper, {} bytes for plain, and all share the runtime, {runtime} bytes)",
        size(&wrapper_of("plain"))
    );

    println!();
    println!("start-up, stdin to answer (median ms over {runs} runs; p90 in brackets)");
    println!(
        "{:<10} {:>16} {:>16} {:>9} {:>16} {:>9}",
        "handler", "agent-bundle", "esbuild runner", "ratio", "bare node", "ratio"
    );
    for (name, _) in HANDLERS {
        let mut commands = vec![vec![wrapper_of(name)], vec![out.join(format!("runner-{name}.mjs"))]];
        if *name == "plain" {
            commands.push(vec![away.path().join("bare.mjs")]);
        }
        let timings = time_alternating(&commands, runs);
        let ours = timings[0];
        let runner = timings[1];
        let bare = timings.get(2).copied();
        println!(
            "{name:<10} {:>16} {:>16} {:>9.3} {:>16} {:>9}",
            show(ours),
            show(runner),
            ours.0 / runner.0,
            bare.map(show).unwrap_or_else(|| "-".into()),
            bare.map(|b| format!("{:.3}", ours.0 / b.0)).unwrap_or_else(|| "-".into()),
        );
    }

    println!();
    println!(
        "one file against an entry and the chunk it shares, the import timed inside node (why each entry is folded; median ms over {} runs)",
        runs * 2
    );
    // The zod handler bundled by esbuild twice: as one file, and split (`--splitting`, with a twin
    // entry importing the same modules), so zod lands in a chunk beside the entry. Whole processes
    // would not show it: node's own start varies by more than the difference.
    let split = away.path().join("split");
    std::fs::copy(bundle.join("src/hooks/zod.ts"), bundle.join("src/hooks/zod-twin.ts")).unwrap();
    let status = Command::new(&esbuild)
        .args([bundle.join("src/hooks/zod.ts"), bundle.join("src/hooks/zod-twin.ts")])
        .args(["--bundle", "--splitting", "--platform=node", "--format=esm", "--target=node18", "--log-level=error"])
        .args(["--out-extension:.js=.mjs", &format!("--outdir={}", split.display())])
        .status()
        .unwrap();
    assert!(status.success());
    let chunks = std::fs::read_dir(&split)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("chunk-"))
        .count();
    assert_eq!(chunks, 1, "the split build shares one chunk");
    std::fs::write(away.path().join("import-time.mjs"), IMPORT_TIME).unwrap();
    let (mut one, mut two) = (Vec::new(), Vec::new());
    for _ in 0..runs * 2 {
        for (file, into) in [(out.join("zod.mjs"), &mut one), (split.join("zod.mjs"), &mut two)] {
            let output = Command::new("node").arg(away.path().join("import-time.mjs")).arg(&file).output().unwrap();
            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
            into.push(String::from_utf8_lossy(&output.stdout).trim().parse::<f64>().expect("a time in ms"));
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (one, two) = (median(&mut one), median(&mut two));
    println!("{:<24} {:>16.2}", "one file", one);
    println!("{:<24} {:>16.2} {:>9.3}  (+{:.2} ms a start-up)", "entry and its chunk", two, two / one, two - one);

    println!();
    println!("event route against config hook, stdin to answer (median ms over {runs} runs; p90 in brackets)");
    let route = manifest.hooks.iter().find(|r| r.name == "event-route-tool-after").unwrap();
    let timings = time_alternating(&[vec![wrapper_of("plain")], vec![artifact.join(&route.path)]], runs);
    println!("{:<24} {:>16}", "config hook (plain)", show(timings[0]));
    println!("{:<24} {:>16} {:>9.3}", "event route (tool/after)", show(timings[1]), timings[1].0 / timings[0].0);

    println!();
    println!("shared runtime against standalone, stdin to answer (median ms over {runs} runs; p90 in brackets)");
    let runtime_dir = away.path().join("runtime");
    let mut server = Command::new("node")
        .arg(artifact.join("mcp/bench-runtime.mjs"))
        .env("AGENT_BUNDLE_RUNTIME_DIR", &runtime_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_dir(&runtime_dir)
        .map_or(true, |d| !d.flatten().any(|e| e.path().extension().is_some_and(|x| x == "sock")))
    {
        assert!(started.elapsed().as_secs() < 10, "the shared runtime did not start");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let shared = manifest.hooks.iter().find(|r| r.name == "event-route-tool-before").unwrap();
    let pre_tool = r#"{"cwd":"/w","hook_event_name":"PreToolUse","session_id":"s","tool_input":{"command":"ls"},"tool_name":"Bash","tool_use_id":"t","transcript_path":"/t.jsonl"}"#;
    let timings = time_alternating_with(
        &[(vec![artifact.join(&route.path)], ENVELOPE), (vec![artifact.join(&shared.path)], pre_tool)],
        runs,
        &[("AGENT_BUNDLE_RUNTIME_DIR", runtime_dir.as_path())],
    );
    println!("{:<24} {:>16}", "standalone route", show(timings[0]));
    println!("{:<24} {:>16} {:>9.3}", "shared route", show(timings[1]), timings[1].0 / timings[0].0);
    let _ = server.kill();
    let _ = server.wait();

    println!();
    println!(
        "the host's command against node on the wrapper, stdin to answer (median ms over {runs} runs; p90 in brackets)"
    );
    let artifact_path = camino::Utf8Path::from_path(&artifact).unwrap();
    let plain = manifest.hooks.iter().find(|r| r.name.contains("-plain-")).unwrap();
    let wrapper = wrapper_of("plain");
    let starts: [(&str, Start); 3] = [
        (
            "node on the wrapper",
            Box::new(|| {
                let mut command = Command::new("node");
                command.arg(&wrapper);
                command
            }),
        ),
        (
            "bash -c (its document)",
            Box::new(|| agent_bundle::tools::simulate::host_command(artifact_path, plain).unwrap()),
        ),
        (
            "sh -c exec form",
            Box::new(|| {
                let mut command = Command::new("bash");
                command.arg("-c").arg(format!("sh -c 'exec node \"$1\" 3>&1 1>&2' sh \"{}\"", wrapper.display()));
                command
            }),
        ),
    ];
    let timings = time_started(&starts.iter().map(|(_, start)| (start.as_ref(), ENVELOPE)).collect::<Vec<_>>(), runs);
    for ((name, _), timing) in starts.iter().zip(&timings) {
        println!("{name:<24} {:>16} {:>9.3}", show(*timing), timing.0 / timings[0].0);
    }
}

/// Makes the command that starts a hook.
type Start<'a> = Box<dyn Fn() -> Command + 'a>;

/// Runs each started command `runs` times, interleaved, each with its stdin; (median, p90) ms each.
fn time_started(starts: &[(&dyn Fn() -> Command, &str)], runs: usize) -> Vec<(f64, f64)> {
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); starts.len()];
    for round in 0..runs + 3 {
        for (index, (start, stdin)) in starts.iter().enumerate() {
            let mut command = start();
            let started = Instant::now();
            let mut child =
                command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
            child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
            let output = child.wait_with_output().unwrap();
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            assert!(output.status.success(), "{command:?}: {}", String::from_utf8_lossy(&output.stderr));
            assert!(!output.stdout.is_empty(), "{command:?} answered nothing");
            // The first rounds warm the file cache.
            if round >= 3 {
                samples[index].push(ms);
            }
        }
    }
    samples
        .into_iter()
        .map(|mut s| {
            s.sort_by(|a, b| a.partial_cmp(b).unwrap());
            (s[s.len() / 2], s[(s.len() * 9) / 10])
        })
        .collect()
}

/// The same answer from the shared runtime.
const SHARED_ROUTE: &str = "import { Agent } from '@agent-bundle/runtime';\n\nexport const config = { runtime: 'shared', tools: ['shell'] };\n\nexport default async function Before({ canonical }) {\n  return <Agent.Context>{`ran ${canonical.payload.toolName.value}`}</Agent.Context>;\n}\n";

/// The event route the benchmark times: the plain handler's answer, rendered as JSX.
const ROUTE: &str = "import { Agent } from '@agent-bundle/runtime';\n\nexport const config = { tools: ['shell'] };\n\nexport default async function After({ canonical }) {\n  return <Agent.Context>{`ran ${canonical.payload.toolName.value}`}</Agent.Context>;\n}\n";

/// Imports the module named by its argument and prints how long the import took, in ms.
const IMPORT_TIME: &str = "const started = performance.now();\nawait import(process.argv[2]);\nprocess.stdout.write(`${performance.now() - started}\\n`);\n";

fn show((median, p90): (f64, f64)) -> String {
    format!("{median:.1} [{p90:.1}]")
}

/// Runs each command `runs` times, interleaved, with the envelope on stdin; (median, p90) ms each.
fn time_alternating(commands: &[Vec<PathBuf>], runs: usize) -> Vec<(f64, f64)> {
    let with_stdin: Vec<(Vec<PathBuf>, &str)> = commands.iter().map(|c| (c.clone(), ENVELOPE)).collect();
    time_alternating_with(&with_stdin, runs, &[])
}

/// Each command with its own stdin, and extra environment variables for all.
fn time_alternating_with(commands: &[(Vec<PathBuf>, &str)], runs: usize, env: &[(&str, &Path)]) -> Vec<(f64, f64)> {
    let starts: Vec<(Start<'_>, &str)> = commands
        .iter()
        .map(|(args, stdin)| {
            let args = args.clone();
            let env: Vec<(String, PathBuf)> = env.iter().map(|(k, v)| (k.to_string(), v.to_path_buf())).collect();
            let start: Start<'_> = Box::new(move || {
                let mut command = Command::new("node");
                command.args(&args).envs(env.iter().map(|(k, v)| (k, v)));
                command
            });
            (start, *stdin)
        })
        .collect();
    time_started(&starts.iter().map(|(start, stdin)| (start.as_ref(), *stdin)).collect::<Vec<_>>(), runs)
}

/// An esbuild-bundled stand-in for a hook: read stdin, parse, call the handler, print an answer.
fn runner(name: &str) -> String {
    format!(
        "import handler from './hooks/{name}.ts';\n\
         const chunks = [];\n\
         for await (const chunk of process.stdin) chunks.push(chunk);\n\
         const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8'));\n\
         const result = await handler({{ toolName: envelope.tool_name, toolInput: envelope.tool_input }});\n\
         process.stdout.write(JSON.stringify({{ hookSpecificOutput: {{ hookEventName: 'PostToolUse', additionalContext: result.additionalContext }} }}));\n"
    )
}

/// The floor: node reading stdin and answering, with no handler at all.
const BARE: &str = "const chunks = [];\n\
    for await (const chunk of process.stdin) chunks.push(chunk);\n\
    const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8'));\n\
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: envelope.hook_event_name } }));\n";

fn node_version() -> String {
    let output = Command::new("node").arg("--version").output().expect("the benchmark runs node");
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}
