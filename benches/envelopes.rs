//! What an envelope's size costs a hook (issue 21, D13): the real wrapper of a beforeTool guard
//! (stdin read to its end, UTF-8 check, JSON parse, envelope checks, frozen copies for the handler,
//! the handler, the answer) fed a `Write` of 1 KiB, 1, 8, 32, 64 and 128 MiB of file content, each
//! against node only reading the same bytes from stdin (the floor no wrapper can go under). Prints,
//! per size, the median wall time and the peak resident memory of the node process, and the ratio
//! of the wrapper to the floor and to the 1 KiB envelope, all from this one run. The default
//! `maxInputBytes` (64 MiB) is chosen from these figures. Asserts nothing.
//!
//!   cargo bench --bench envelopes -- [RUNS]      (default 5 runs per size and command)

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agent_bundle::driver::{BuildOptions, build};
use agent_bundle::io::RealDisk;
use camino::Utf8PathBuf;

const SIZES: &[(&str, usize)] = &[
    ("1 KiB", 1024),
    ("1 MiB", 1 << 20),
    ("8 MiB", 8 << 20),
    ("32 MiB", 32 << 20),
    ("64 MiB", 64 << 20),
    ("128 MiB", 128 << 20),
];

/// One run: wall time and the process's peak resident set (from wait4's rusage).
#[allow(clippy::zombie_processes, reason = "the child is reaped by wait4, which also reports its rusage")]
fn run(program: &[&str], stdin: &[u8]) -> (Duration, u64) {
    let started = Instant::now();
    let mut child = Command::new(program[0])
        .args(&program[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("node runs");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut out);
        out
    });
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills in; the pid is our own child's.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4 failed");
    let elapsed = started.elapsed();
    writer.join().unwrap();
    let answer = reader.join().unwrap();
    let exit = std::process::ExitStatus::from_raw(status);
    assert!(exit.success(), "{program:?} failed ({exit}) on {} bytes", stdin.len());
    if program.len() > 1 && program[1].ends_with(".mjs") {
        assert!(String::from_utf8_lossy(&answer).contains("no .env writes"), "the guard did not answer");
    }
    // Linux reports ru_maxrss in KiB.
    (elapsed, usage.ru_maxrss as u64 * 1024)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    values[values.len() / 2]
}

fn main() {
    let runs: usize = std::env::args().skip(1).find(|a| !a.starts_with('-')).and_then(|a| a.parse().ok()).unwrap_or(5);
    let work = tempfile::tempdir().unwrap();
    let root = work.path().join("bundle");
    std::fs::create_dir_all(root.join("src/hooks")).unwrap();
    std::fs::write(
        root.join("agent-bundle.config.ts"),
        "export default {\n  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['file.write'], maxInputBytes: 268435456 } },\n  plugin: { name: 'envelope-bench', description: 'Envelope sizes.', version: '1.0.0', author: 'agent-bundle bench' },\n  targets: ['claude'],\n};\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/hooks/guard.ts"),
        "export default (event: { toolInput: { file_path?: string } }) =>\n  String(event.toolInput.file_path).endsWith('.env') ? { outcome: 'deny', reason: 'no .env writes' } : undefined;\n",
    )
    .unwrap();
    let output = Utf8PathBuf::from_path_buf(work.path().join("artifact")).unwrap();
    let options = BuildOptions {
        root: Utf8PathBuf::from_path_buf(root).unwrap(),
        output: Some(output.clone()),
        cache_dir: Some(Utf8PathBuf::from_path_buf(work.path().join("cache")).unwrap()),
        ..Default::default()
    };
    let report = build(&options, &RealDisk).unwrap();
    assert!(!report.has_errors(), "{:?}", report.diagnostics());
    let manifest = agent_bundle::artifact::read_verified(&output, &RealDisk).unwrap();
    let wrapper = output.join(&manifest.hooks[0].path).to_string();
    let floor = "let n = 0; process.stdin.on('data', (c) => { n += c.length; }).on('end', () => process.stdout.write(String(n)));";

    println!(
        "envelope size cost: the real wrapper of a beforeTool guard against node reading stdin ({runs} runs each, medians)"
    );
    println!(
        "{:>8} {:>12} {:>12} {:>10} {:>12} {:>12} {:>10} {:>12}",
        "size", "wrapper ms", "floor ms", "× floor", "× 1 KiB", "wrapper MiB", "floor MiB", "ms per MiB"
    );
    let mut base_ms = None;
    for (label, size) in SIZES {
        let head = r#"{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write","tool_use_id":"toolu_1","tool_input":{"file_path":"/tmp/project/.env","content":""#;
        let tail = r#""}}"#;
        let mut envelope = Vec::with_capacity(size + 256);
        envelope.extend_from_slice(head.as_bytes());
        envelope.resize(head.len() + size.saturating_sub(head.len() + tail.len()), b'a');
        envelope.extend_from_slice(tail.as_bytes());
        let (mut wrapper_ms, mut floor_ms, mut wrapper_rss, mut floor_rss) = (Vec::new(), Vec::new(), 0, 0);
        // Alternate the two commands so the machine's drift hits both alike.
        for _ in 0..runs {
            let (time, rss) = run(&["node", &wrapper], &envelope);
            wrapper_ms.push(time.as_secs_f64() * 1000.0);
            wrapper_rss = wrapper_rss.max(rss);
            let (time, rss) = run(&["node", "-e", floor], &envelope);
            floor_ms.push(time.as_secs_f64() * 1000.0);
            floor_rss = floor_rss.max(rss);
        }
        let (wrapper_ms, floor_ms) = (median(wrapper_ms), median(floor_ms));
        let base = *base_ms.get_or_insert(wrapper_ms);
        let per_mib = if *size >= 1 << 20 {
            format!("{:.1}", (wrapper_ms - base) / (*size as f64 / f64::from(1 << 20)))
        } else {
            "—".into()
        };
        println!(
            "{label:>8} {wrapper_ms:>12.1} {floor_ms:>12.1} {:>10.2} {:>12.2} {:>12.0} {:>10.0} {per_mib:>12}",
            wrapper_ms / floor_ms,
            wrapper_ms / base,
            wrapper_rss as f64 / f64::from(1 << 20),
            floor_rss as f64 / f64::from(1 << 20),
        );
    }
}
