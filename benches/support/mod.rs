//! What the build benchmarks share: the generated monorepo they build, the floors they compare a
//! build against, and running a command as a child process measured from outside (wall time, CPU
//! time and peak memory).

#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use agent_bundle::vocabulary::digest::sha256_hex;

/// Writes a monorepo of `bundles` bundle folders (`bundle-000` …), each holding `hooks` TypeScript
/// handlers (`src/hooks/hook-00.ts` …) that import a shared module (`src/lib/shared.ts`: a type, an
/// enum and a function), and a config declaring every handler as a `beforeTool` hook. Every file
/// names its bundle, so no two bundles share a byte of source: a cache keyed by content (ours is,
/// across checkouts) finds nothing from one bundle to reuse for another, as in a real monorepo.
pub fn generate(repo: &Path, bundles: usize, hooks: usize) {
    for b in 0..bundles {
        let root = repo.join(format!("bundle-{b:03}"));
        std::fs::create_dir_all(root.join("src/hooks")).unwrap();
        std::fs::create_dir_all(root.join("src/lib")).unwrap();
        std::fs::write(
            root.join("src/lib/shared.ts"),
            format!(
                "export interface ToolEvent {{ readonly toolName: string; readonly toolInput: {{ readonly command?: string }} }}\n\
                 export enum Verdict {{ Allow = 'allow', Deny = 'deny' }}\n\
                 export function judge(command: string, banned: readonly string[]): Verdict {{\n  \
                 const bundle = {b};\n  \
                 return bundle >= 0 && banned.some((b) => command.includes(b)) ? Verdict.Deny : Verdict.Allow;\n}}\n"
            ),
        )
        .unwrap();
        let mut entries = String::new();
        for h in 0..hooks {
            std::fs::write(
                root.join(format!("src/hooks/hook-{h:02}.ts")),
                format!(
                    "import type {{ ToolEvent }} from '../lib/shared';\nimport {{ judge, Verdict }} from '../lib/shared';\n\n\
                     export default (event: ToolEvent) => {{\n  const verdict = judge(event.toolInput.command ?? '', ['rm -rf {h}']);\n  \
                     return verdict === Verdict.Deny ? {{ outcome: 'deny' as const, reason: 'hook {h} refused it in bundle {b}' }} : undefined;\n}};\n"
                ),
            )
            .unwrap();
            entries.push_str(&format!(
                "      {{ handler: './src/hooks/hook-{h:02}.ts', tools: ['shell'], timeout: 5 }},\n"
            ));
        }
        std::fs::write(
            root.join("agent-bundle.config.ts"),
            format!(
                "export default {{\n  hooks: {{\n    beforeTool: [\n{entries}    ],\n  }},\n  \
                 plugin: {{ name: 'bundle-{b:03}', description: 'Benchmark bundle.', version: '1.0.0', author: 'bench' }},\n}};\n"
            ),
        )
        .unwrap();
    }
}

/// The bundle folders of a generated monorepo, sorted.
pub fn bundle_roots(repo: &Path) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> =
        std::fs::read_dir(repo).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    roots.sort();
    roots
}

/// Replaces the first `from` in a file with `to` (an edit between two builds); fails if it is absent.
pub fn replace(path: &Path, from: &str, to: &str) {
    let content = std::fs::read_to_string(path).unwrap();
    assert!(content.contains(from), "{} lacks {from}", path.display());
    std::fs::write(path, content.replacen(from, to, 1)).unwrap();
}

/// Milliseconds to stat every input once: what a no-op build must at least do.
pub fn stat_floor(repo: &Path) -> f64 {
    let files: Vec<PathBuf> = walkdir::WalkDir::new(repo)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "ts"))
        .map(|e| e.into_path())
        .collect();
    let started = Instant::now();
    let mut total = 0u64;
    for file in &files {
        total += std::fs::metadata(file).unwrap().len();
    }
    assert!(total > 0);
    started.elapsed().as_secs_f64() * 1000.0
}

/// Milliseconds to read and hash every input (configs and modules) once.
pub fn io_floor(repo: &Path) -> f64 {
    let started = Instant::now();
    let mut total = 0usize;
    for entry in walkdir::WalkDir::new(repo).into_iter().filter_map(Result::ok) {
        let path = entry.path();
        if entry.file_type().is_file()
            && path.extension().is_some_and(|e| e == "ts")
            && !path.to_string_lossy().contains("/artifact/")
        {
            let bytes = std::fs::read(path).unwrap();
            total += sha256_hex(&bytes).len();
        }
    }
    assert!(total > 0);
    started.elapsed().as_secs_f64() * 1000.0
}

/// The peak resident memory of this process so far, in KiB (`VmHWM`; 0 where `/proc` has none).
pub fn own_peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// A scratch folder on tmpfs (`/dev/shm`) where it is writable, so that the disk does not time the
/// builds; the system's temporary folder otherwise. Removed when dropped.
pub fn scratch_dir(prefix: &str) -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(shm)
        .or_else(|_| tempfile::Builder::new().prefix(prefix).tempdir())
        .expect("a temporary folder")
}

/// The median of some measurements (the mean of the middle two for an even count).
pub fn median(values: &[f64]) -> f64 {
    assert!(!values.is_empty(), "the median of nothing");
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() / 2;
    if sorted.len() % 2 == 1 { sorted[middle] } else { (sorted[middle - 1] + sorted[middle]) / 2.0 }
}

/// One command's run as seen from outside it.
#[derive(Clone, Debug)]
pub struct Measured {
    /// From just before the process is started to its exit: process start and exit included.
    pub wall_ms: f64,
    /// User plus system CPU time of the process and of every process it started (see [`measure`]).
    pub cpu_ms: f64,
    /// The largest peak resident set of any one process of the tree (what the kernel's resource
    /// usage keeps: a maximum, not a sum of processes that ran side by side), in KiB.
    pub peak_rss_kib: u64,
    pub stdout: String,
}

/// Runs a command to its end and measures it; panics with its stderr if it fails.
///
/// The wall time ends when the command's own process exits. CPU time and peak memory are taken from
/// the kernel's accounting of the process (`wait4`), which includes every descendant it waited for;
/// descendants it left running (esbuild's build service, say) are re-parented to this process
/// (`PR_SET_CHILD_SUBREAPER`) and waited for and counted too, so that work a tool hands to a helper
/// process is not lost. Not for use while this process has other children.
pub fn measure(command: &mut Command) -> Measured {
    become_subreaper();
    let started = Instant::now();
    // Reaped below by `wait4`, which also yields its resource usage (`Child::wait` would not).
    #[allow(clippy::zombie_processes)]
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{command:?} cannot start: {e}"));
    let stdout = drain(child.stdout.take().unwrap());
    let stderr = drain(child.stderr.take().unwrap());
    let (status, own) = wait_for(child.id() as libc::pid_t).expect("the started process is this one's child");
    let wall_ms = started.elapsed().as_secs_f64() * 1000.0;
    let mut usage = vec![own];
    while let Some((_, left_running)) = wait_for(-1) {
        usage.push(left_running);
    }
    let stdout = stdout.join().unwrap();
    let stderr = stderr.join().unwrap();
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{command:?} failed (wait status {status}):\n{stderr}\n{stdout}"
    );
    Measured {
        wall_ms,
        cpu_ms: usage.iter().map(cpu_ms).sum(),
        peak_rss_kib: usage.iter().map(|u| u.ru_maxrss.max(0) as u64).max().unwrap_or(0),
        stdout,
    }
}

/// Makes orphaned descendants of this process its children rather than init's (Linux; elsewhere
/// they are simply not counted).
fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER reads only its integer arguments.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// Waits for a child (`-1`: any) to exit; its wait status and resource usage, or `None` when there
/// is no child left to wait for.
fn wait_for(pid: libc::pid_t) -> Option<(libc::c_int, libc::rusage)> {
    let mut status = 0;
    // SAFETY: rusage is plain integers, for which all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: both pointers are to live locals of the types wait4 writes.
        let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if waited > 0 {
            return Some((status, usage));
        }
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return None;
        }
    }
}

fn cpu_ms(usage: &libc::rusage) -> f64 {
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1000.0 + t.tv_usec as f64 / 1000.0;
    ms(usage.ru_utime) + ms(usage.ru_stime)
}

/// Reads a pipe to its end on a thread of its own (so that neither of a child's pipes can fill up
/// and stall it while the other is read).
fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}
