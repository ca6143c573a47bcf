//! What a hook's wrapper adds to `node` at every start (issue 46, item 4): the host starts `node` on
//! the wrapper for every tool call, and the wrapper loads the shared runtime before the handler's
//! bundle. One handler with nothing to import and one whose bundle is about 1 MB (date-fns with every
//! locale, from the pinned `benches/packages`), built for Claude Code and run from a copy of the
//! artifact with no node_modules above it, the envelope on stdin, to the answer. Prints, from this
//! one run, the median wall time and the median CPU time (user and system, of the child alone, from
//! `getrusage(RUSAGE_CHILDREN)`) of:
//!
//!   * `node` on a bare module that reads stdin and answers (the floor: what any hook pays);
//!   * the wrapper with the tiny handler;
//!   * a bare module that imports the ~1 MB bundle itself, reads stdin, calls it and answers (the
//!     floor of that handler: its bundle's load without any wrapper);
//!   * the wrapper with that handler;
//!   * where the node that runs them has Node's compile cache (`module.enableCompileCache`, Node
//!     22.1 and newer): the same wrapper with the cache turned off (`NODE_DISABLE_COMPILE_CACHE`),
//!     and with an empty cache folder at every start (the first call after an install or an edit).
//!     Every row runs with `XDG_CACHE_HOME` (where the runtime keeps that cache) in a folder of the
//!     benchmark's own.
//!
//! Runs alternate between the rows, so drift in the machine's load hits all alike, after three
//! rounds that warm the file cache. Asserts nothing but that every row answers.
//!
//!   cargo bench --bench wrapper_start -- [RUNS]      (default 60 runs of each row)
//!
//! `AGENT_BUNDLE_BENCH_NODE=<path>` runs the rows under another node (a Node 22's, say) than the
//! one on PATH.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use agent_bundle::io::RealDisk;
use agent_bundle::vocabulary::target::Target;

#[allow(dead_code, reason = "shared with tests/it, which uses all of it; this uses a part")]
#[path = "../tests/it/common/mod.rs"]
mod common;

const TINY: &str =
    "export default (event: { toolName: string }) => ({ additionalContext: `ran ${event.toolName}` });\n";

/// About 1 MB bundled: date-fns and every one of its locales, one picked by the envelope.
const LARGE: &str = "import { format } from 'date-fns';\n\
    import * as locales from 'date-fns/locale';\n\n\
    const names = Object.keys(locales) as (keyof typeof locales)[];\n\n\
    export default (event: { toolName: string }) => ({\n  \
    additionalContext: `ran ${event.toolName} ${format(new Date(2026, 10, 30), 'PPPP', { locale: locales[names[event.toolName.length % names.length]] })}`,\n\
    });\n";

const CONFIG: &str = "export default {\n  hooks: { afterTool: [\n    { handler: './src/hooks/tiny.ts', tools: ['shell'] },\n    { handler: './src/hooks/large.ts', tools: ['shell'] },\n  ] },\n  plugin: { name: 'bench', description: 'Benchmark.', version: '1.0.0', author: 'bench' },\n  targets: ['claude'],\n};\n";

const ENVELOPE: &str = r#"{"cwd":"/w","hook_event_name":"PostToolUse","session_id":"s","tool_input":{"command":"ls"},"tool_name":"Bash","tool_response":{"stdout":""},"tool_use_id":"t","transcript_path":"/t.jsonl"}"#;

/// The floor: read stdin, answer, nothing else.
const BARE: &str = "import { readFileSync } from 'node:fs';\n\
    const envelope = JSON.parse(readFileSync(0, 'utf8'));\n\
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: `ran ${envelope.tool_name}` } }));\n";

/// The large handler's floor: its bundle imported by a bare module, which reads stdin, calls it and answers.
const BARE_IMPORT: &str = "import { readFileSync } from 'node:fs';\n\
    import handler from './artifact/hooks/handlers/src/hooks/large.mjs';\n\
    const envelope = JSON.parse(readFileSync(0, 'utf8'));\n\
    const result = await handler({ toolName: envelope.tool_name });\n\
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: result.additionalContext } }));\n";

/// One row: its name, node's arguments, extra environment, whether each start gets an empty
/// `XDG_CACHE_HOME`, and what its answer must hold.
struct Row {
    name: &'static str,
    args: Vec<PathBuf>,
    env: Vec<(&'static str, &'static str)>,
    fresh_cache: bool,
    answer: &'static str,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let runs: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(60);
    let node = std::env::var("AGENT_BUNDLE_BENCH_NODE").unwrap_or_else(|_| "node".to_string());
    let packages = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/packages");
    common::npm_installed(camino::Utf8Path::from_path(&packages).unwrap());

    // The bundle lives beside the installed packages, as a plugin author's would; the artifact is
    // copied away from them.
    let work = tempfile::Builder::new().prefix(".bench-").tempdir_in(&packages).unwrap();
    let bundle = work.path().join("bundle");
    for (path, text) in [("src/hooks/tiny.ts", TINY), ("src/hooks/large.ts", LARGE), ("agent-bundle.config.ts", CONFIG)]
    {
        let path = bundle.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let options = agent_bundle::driver::BuildOptions {
        root: camino::Utf8PathBuf::from_path_buf(bundle).unwrap(),
        output: Some(camino::Utf8PathBuf::from_path_buf(work.path().join("artifact")).unwrap()),
        no_cache: true,
        ..Default::default()
    };
    let report = agent_bundle::driver::build(&options, &RealDisk).unwrap();
    assert!(!report.has_errors(), "{:?}", report.diagnostics());
    let away = tempfile::tempdir().unwrap();
    let artifact = away.path().join("artifact");
    common::copy_tree(&work.path().join("artifact"), &artifact);
    std::fs::write(away.path().join("bare.mjs"), BARE).unwrap();
    std::fs::write(away.path().join("bare-import.mjs"), BARE_IMPORT).unwrap();
    let manifest =
        agent_bundle::artifact::read_verified(camino::Utf8Path::from_path(&artifact).unwrap(), &RealDisk).unwrap();
    let wrapper_of = |handler: &str| {
        let row = manifest.hooks.iter().find(|r| r.host == Target::Claude && r.name.contains(handler)).unwrap();
        artifact.join(&row.path)
    };
    let size = |path: &Path| std::fs::metadata(path).unwrap().len();

    let version = Command::new(&node).arg("--version").output().expect("the benchmark runs node");
    let probe = Command::new(&node)
        .args(["-p", "typeof require('node:module').enableCompileCache === 'function'"])
        .output()
        .unwrap();
    let compile_cache = String::from_utf8_lossy(&probe.stdout).trim() == "true";
    println!(
        "agent-bundle wrapper start benchmark: {runs} runs of each row, interleaved, node {} ({})",
        String::from_utf8_lossy(&version.stdout).trim(),
        if compile_cache { "with the compile cache" } else { "without a compile cache" }
    );
    println!(
        "runtime {} bytes, a wrapper {} bytes, the tiny handler's bundle {} bytes, the large one's {} bytes",
        size(&artifact.join("hooks/agent-bundle-runtime.mjs")),
        size(&wrapper_of("-tiny-")),
        size(&artifact.join("hooks/handlers/src/hooks/tiny.mjs")),
        size(&artifact.join("hooks/handlers/src/hooks/large.mjs")),
    );

    let row = |name, args: Vec<PathBuf>| Row { name, args, env: Vec::new(), fresh_cache: false, answer: "ran Bash" };
    let mut rows = vec![
        row("node on a bare module reading stdin (floor)", vec![away.path().join("bare.mjs")]),
        row("wrapper, tiny handler", vec![wrapper_of("-tiny-")]),
        row("bare module importing the large bundle", vec![away.path().join("bare-import.mjs")]),
        row("wrapper, large handler", vec![wrapper_of("-large-")]),
    ];
    if compile_cache {
        rows.push(Row {
            env: vec![("NODE_DISABLE_COMPILE_CACHE", "1")],
            ..row("wrapper, large handler, compile cache off", vec![wrapper_of("-large-")])
        });
        rows.push(Row { fresh_cache: true, ..row("wrapper, large handler, empty cache", vec![wrapper_of("-large-")]) });
    }
    let caches = away.path().join("caches");
    let figures = time_rows(&node, &rows, runs, &caches);

    println!();
    println!("stdin to answer, median of {runs} (wall ms, CPU ms; ratios to the floor and to the bare import)");
    println!("{:<44} {:>8} {:>8} {:>14} {:>14}", "", "wall", "CPU", "× floor", "× bare import");
    let (floor, bare_import) = (figures[0], figures[2]);
    for (index, (row, (wall, cpu))) in rows.iter().zip(&figures).enumerate() {
        let against_import = if index >= 2 {
            format!("{:.3} / {:.3}", wall / bare_import.0, cpu / bare_import.1)
        } else {
            "-".to_string()
        };
        println!(
            "{:<44} {wall:>8.1} {cpu:>8.1} {:>14} {against_import:>14}",
            row.name,
            format!("{:.3} / {:.3}", wall / floor.0, cpu / floor.1),
        );
    }
    println!();
    // The large handler's row without the compile cache, where the node has one: what the wrapper
    // itself adds.
    let uncached = if compile_cache { figures[4] } else { figures[3] };
    println!(
        "what the wrapper adds: {:+.1} ms wall, {:+.1} ms CPU to the floor (tiny handler); {:+.1} ms wall, {:+.1} ms CPU to the bare import (large handler{})",
        figures[1].0 - floor.0,
        figures[1].1 - floor.1,
        uncached.0 - bare_import.0,
        uncached.1 - bare_import.1,
        if compile_cache { ", compile cache off" } else { "" },
    );
    if compile_cache {
        let (warm, cold) = (figures[3], figures[5]);
        println!(
            "Node's compile cache, large handler, against it off: {:+.1} ms wall, {:+.1} ms CPU (×{:.3}) from the cache; {:+.1} ms wall, {:+.1} ms CPU (×{:.3}) at a first call, which fills it",
            warm.0 - uncached.0,
            warm.1 - uncached.1,
            warm.0 / uncached.0,
            cold.0 - uncached.0,
            cold.1 - uncached.1,
            cold.0 / uncached.0,
        );
    }
}

/// Runs every row `runs` times, interleaved (after three rounds that warm the file cache), each
/// with the envelope on stdin; each row's (median wall ms, median CPU ms).
fn time_rows(node: &str, rows: &[Row], runs: usize, caches: &Path) -> Vec<(f64, f64)> {
    let mut walls: Vec<Vec<f64>> = vec![Vec::new(); rows.len()];
    let mut cpus: Vec<Vec<f64>> = vec![Vec::new(); rows.len()];
    let warm = caches.join("warm");
    for round in 0..runs + 3 {
        for (index, row) in rows.iter().enumerate() {
            let cache = if row.fresh_cache { caches.join(format!("fresh-{round}-{index}")) } else { warm.clone() };
            let mut command = Command::new(node);
            command.args(&row.args).envs(row.env.iter().copied()).env("XDG_CACHE_HOME", &cache);
            for variable in ["NODE_COMPILE_CACHE", "NODE_OPTIONS"] {
                command.env_remove(variable);
            }
            let before = children_cpu_ms();
            let started = Instant::now();
            let mut child =
                command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
            child.stdin.take().unwrap().write_all(ENVELOPE.as_bytes()).unwrap();
            let output = child.wait_with_output().unwrap();
            let wall = started.elapsed().as_secs_f64() * 1000.0;
            let cpu = children_cpu_ms() - before;
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert!(
                output.status.success() && stdout.contains(row.answer),
                "{}: {stdout} {}",
                row.name,
                String::from_utf8_lossy(&output.stderr)
            );
            if row.fresh_cache {
                let _ = std::fs::remove_dir_all(&cache);
            }
            if round >= 3 {
                walls[index].push(wall);
                cpus[index].push(cpu);
            }
        }
    }
    walls.into_iter().zip(cpus).map(|(wall, cpu)| (median(wall), median(cpu))).collect()
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// CPU time (user and system) of every child waited for so far, in ms.
fn children_cpu_ms() -> f64 {
    // SAFETY: getrusage writes one rusage into the zeroed struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage), 0);
        usage
    };
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1000.0 + t.tv_usec as f64 / 1000.0;
    ms(usage.ru_utime) + ms(usage.ru_stime)
}
