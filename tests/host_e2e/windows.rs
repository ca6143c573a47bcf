//! The real-host suite on Windows programs, under Wine (D17): every wrapper of the test bundles run by
//! Windows Node exactly as its host's Windows form says (through `cmd.exe /c`, or by argv for an exec
//! form), answering as on Linux; and the hosts' own Windows builds (Codex, Claude Code) running the
//! emitted plugins, installed the way a user installs them. `scripts/windows-programs.sh` installs
//! Wine's prefix, Windows Node and the hosts' Windows builds; `scripts/host-e2e.sh` hands its lines to
//! the suite as environment variables. What Wine 8.0 cannot run (PowerShell, Git Bash, Copilot CLI's
//! Node 24 build, Gemini's model calls) is not run here: the matrix says so per host.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use agent_bundle::artifact::{IndexRow, read_verified};
use agent_bundle::io::RealDisk;
use agent_bundle::tools::windows::{Invocation, invocation};
use agent_bundle::vocabulary::target::Target;
use camino::Utf8Path;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::hosts::{HostRun, run_bounded, write_codex_config, write_marketplace};
use crate::mock::{Call, Dialect, MockServer};

/// A check run against the Windows programs.
pub type WindowsCheck = fn(&Wine) -> Result<(), String>;

/// The Windows programs and Wine's prefix, as `scripts/windows-programs.sh` printed them.
pub struct Wine {
    wine: PathBuf,
    prefix: PathBuf,
    overrides: String,
    pub node: PathBuf,
    codex: PathBuf,
    claude: PathBuf,
    /// The Windows PATH addition Claude Code needs to start (the folder of Wine's PowerShell stand-in,
    /// which the script moves out of the system's folder so that Codex runs hooks through cmd.exe).
    claude_winepath: String,
}

impl Wine {
    pub fn locate() -> Result<Wine, String> {
        let var = |name: &str| {
            std::env::var(name).map_err(|_| {
                format!("{name} is not set: run the suite through scripts/host-e2e.sh, which runs scripts/windows-programs.sh (Wine, Windows Node and the hosts' Windows builds) first")
            })
        };
        let wine = Wine {
            wine: var("WINE")?.into(),
            prefix: var("WINEPREFIX")?.into(),
            overrides: var("WINEDLLOVERRIDES")?,
            node: var("WINDOWS_NODE")?.into(),
            codex: var("CODEX_EXE")?.into(),
            claude: var("CLAUDE_EXE")?.into(),
            claude_winepath: var("CLAUDE_WINEPATH")?,
        };
        for program in [&wine.wine, &wine.node, &wine.codex, &wine.claude] {
            if !program.is_file() {
                return Err(format!("{} is missing: run scripts/windows-programs.sh", program.display()));
            }
        }
        Ok(wine)
    }

    /// `program` (a Windows executable) under Wine, in a cleared environment with the suite's prefix.
    fn command(&self, program: &Path) -> Command {
        let mut command = Command::new(&self.wine);
        command
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("WINEPREFIX", &self.prefix)
            .env("WINEDEBUG", "-all")
            .env("WINEDLLOVERRIDES", &self.overrides)
            // Wine names Unix files in the locale's character set: UTF-8, as the files are named.
            .env("LANG", "C.UTF-8")
            .arg(program);
        command
    }
}

/// A Unix path as Wine's Windows programs see it: on drive Z:, with backslashes.
pub fn windows_path(path: &Path) -> String {
    format!("Z:{}", path.display()).replace('/', "\\")
}

/// One hook command for the Windows driver (tests/host_e2e/windows-driver.mjs).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Job {
    id: usize,
    how: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    command: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    program: Option<String>,
    args: Vec<String>,
    env: BTreeMap<String, String>,
    cwd: String,
    stdin: String,
    limit_ms: u64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JobResult {
    id: usize,
    code: Option<i32>,
    stdout: String,
    stderr: String,
    ms: u64,
    timed_out: bool,
    /// How often Wine failed to start the process before it ran (the driver starts it again).
    spawn_retries: u32,
}

/// Runs `jobs` in one Windows Node process under Wine (two at a time), as a host would start them.
fn run_jobs(wine: &Wine, jobs: &[Job], limit: Duration) -> Result<Vec<JobResult>, String> {
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (jobs_file, results_file) = (temp.path().join("jobs.json"), temp.path().join("results.json"));
    std::fs::write(&jobs_file, serde_json::to_vec(jobs).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    let driver = std::fs::canonicalize("tests/host_e2e/windows-driver.mjs").map_err(|e| e.to_string())?;
    let mut command = wine.command(&wine.node);
    command.arg(windows_path(&driver)).arg(windows_path(&jobs_file)).arg(windows_path(&results_file));
    let (code, timed_out, stdout, stderr) = run_bounded(command, limit).map_err(|e| e.to_string())?;
    if timed_out || code != Some(0) {
        return Err(format!("the Windows driver exited {code:?} (timed out: {timed_out}): {stdout} {stderr}"));
    }
    let text = std::fs::read_to_string(&results_file).map_err(|e| format!("the driver wrote no results: {e}"))?;
    let results: Vec<JobResult> = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    if results.len() != jobs.len() || results.iter().zip(jobs).any(|(result, job)| result.id != job.id) {
        return Err(format!("{} jobs, {} results, not one for each", jobs.len(), results.len()));
    }
    Ok(results)
}

/// The host's plugin folder within an artifact (its own folder, where it has one).
fn plugin_folder(artifact: &Path, host: Target) -> PathBuf {
    let surface = agent_bundle::hosts::table(host).hooks.as_ref().expect("hosts with rows have hooks");
    match &surface.folder {
        Some(folder) => artifact.join(folder),
        None => artifact.to_path_buf(),
    }
}

/// The variable a host's root token names (`${CLAUDE_PLUGIN_ROOT}` → `CLAUDE_PLUGIN_ROOT`), which the
/// hosts also set in a hook's environment.
fn root_variable(host: Target) -> String {
    let surface = agent_bundle::hosts::table(host).hooks.as_ref().expect("hosts with rows have hooks");
    surface.root_token.trim_start_matches("${").trim_end_matches('}').to_string()
}

/// A job that runs `row`'s hook as its host does on Windows, with the plugin at `root` (a Windows path).
fn job_for(
    id: usize,
    artifact: &Path,
    row: &IndexRow,
    root: &str,
    stdin: &[u8],
    env: &[(&str, &str)],
) -> Result<Job, String> {
    let utf8 = Utf8Path::from_path(artifact).ok_or("the artifact path is not UTF-8")?;
    let mut job = Job {
        id,
        how: "cmd",
        command: None,
        program: None,
        args: Vec::new(),
        env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        // In the artifact, as `hooks simulate` runs the POSIX form on Linux.
        cwd: windows_path(artifact),
        stdin: String::from_utf8_lossy(stdin).into_owned(),
        limit_ms: 60_000,
    };
    job.env.insert(root_variable(row.host), root.to_string());
    match invocation(utf8, row, root)? {
        Invocation::Exec { program, args } => {
            job.how = "exec";
            job.program = Some(program);
            job.args = args;
        }
        // cmd.exe runs every Windows command here: PowerShell cannot be had under Wine 8.0, so a
        // PowerShell host's command (which holds no cmd.exe syntax either) runs in cmd.exe instead.
        Invocation::Shell { command, quotes_escaped, .. } => {
            job.how = if quotes_escaped { "cmd-escaped" } else { "cmd" };
            job.command = Some(command);
        }
    }
    Ok(job)
}

/// The shapes of testdata/bundles/wrapper-matrix whose outcome depends on the wrapper's process: what
/// reaches stdout by every path (console, process.stdout, fd 1, children, a worker) and errors outside
/// the handler's promise. `/dev/stdout` and a child's fd 3 are POSIX-only and left out.
const PROCESS_SHAPES: &[&str] = &[
    "logs, then context",
    "children with inherited stdio, then context",
    "writes to fd 1, then context",
    "a worker writes to fd 1, then context",
    "pollutes Object.prototype, then context",
    "throws in a timer",
    "leaves a rejection",
    "deny",
    "throws",
];

/// One hook run on both systems: with `linux` set in its environment there, `windows` on Windows.
struct Case {
    label: String,
    artifact: PathBuf,
    row: IndexRow,
    stdin: Vec<u8>,
    linux: Vec<(String, String)>,
    windows: Vec<(String, String)>,
}

fn shape_env(shape: &str) -> Vec<(String, String)> {
    vec![("AGENT_BUNDLE_TEST_SHAPE".to_string(), shape.to_string())]
}

/// (a) Every wrapper of testdata/bundles, on the host's recorded envelope (else the canonical
/// superset's), and every wrapper of wrapper-matrix with each process shape, run by Windows Node
/// through its host's Windows form: the same stdout and exit code as the host's POSIX form on Linux,
/// and no handler output in the answer.
pub fn wrappers_answer_as_on_linux(wine: &Wine) -> Result<(), String> {
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let recorded = crate::common::recorded_envelopes();
    let mut cases = Vec::new();
    // The wrapper matrix with room for its children and workers under Wine (its own 2 s timeouts are
    // for the Linux tests): a deadline missed under load is not a difference between the systems.
    let (_matrix_guard, matrix_artifact) = crate::common::doors::unhurried_matrix();
    for (index, bundle) in crate::common::testdata_bundles().iter().enumerate() {
        let matrix = bundle.ends_with("wrapper-matrix");
        let artifact = match matrix {
            true => matrix_artifact.clone().into_std_path_buf(),
            false => crate::build_into(bundle, &temp.path().join(index.to_string()))?,
        };
        let utf8 = Utf8Path::from_path(&artifact).ok_or("the artifact path is not UTF-8")?;
        let manifest = read_verified(utf8, &RealDisk).map_err(|e| e.to_string())?;
        let mut combined_seen = std::collections::BTreeSet::new();
        for row in manifest.hooks {
            let surface = agent_bundle::hosts::table(row.host).hooks.as_ref().expect("rows have hooks");
            if surface.in_process() || row.hooks_module {
                continue;
            }
            // A hook of a combined command: the host runs the command, once for all its hooks.
            let row = match row.combined.clone() {
                Some(command) if !combined_seen.insert((row.host, command.clone())) => continue,
                Some(command) => agent_bundle::artifact::IndexRow { path: command, combined: None, ..row },
                None => row,
            };
            let envelope = recorded
                .iter()
                .find(|r| r.host == row.host && r.native == row.native_event)
                .map(|r| r.bytes.clone())
                .unwrap_or_else(|| crate::common::envelope_with(&row, json!({})).to_string().into_bytes());
            let label = format!("{} {}", bundle.display(), row.path);
            if matrix {
                for shape in PROCESS_SHAPES {
                    let label = format!("{label} ({shape})");
                    let (linux, windows) = (shape_env(shape), shape_env(shape));
                    cases.push(Case {
                        label,
                        artifact: artifact.clone(),
                        row: row.clone(),
                        stdin: envelope.clone(),
                        linux,
                        windows,
                    });
                }
            } else {
                cases.push(Case {
                    label,
                    artifact: artifact.clone(),
                    row,
                    stdin: envelope,
                    linux: Vec::new(),
                    windows: Vec::new(),
                });
            }
        }
        // Generated handlers that write through every door to stdout, then give a result: on Windows
        // each answers exactly as the same result without the writes does on Linux.
        if matrix {
            let rows: Vec<&Case> = cases.iter().filter(|c| c.artifact == artifact && c.windows.len() == 1).collect();
            let mut generated = Vec::new();
            for seed in 0..crate::common::doors::DOORS.len() as u64 + 5 {
                let case = rows[crate::common::Random::seeded(seed ^ 0xd005).below(rows.len())];
                let (writes, plain) = crate::common::doors::plan(seed);
                let with = |plan: &serde_json::Value| {
                    let mut env = shape_env(crate::common::doors::SHAPE);
                    env.push((crate::common::doors::PLAN.to_string(), plan.to_string()));
                    env
                };
                generated.push(Case {
                    label: format!("{} {} (generated doors, seed {seed}: {writes})", bundle.display(), case.row.path),
                    artifact: artifact.clone(),
                    row: case.row.clone(),
                    stdin: case.stdin.clone(),
                    linux: with(&plain),
                    windows: with(&writes),
                });
            }
            cases.extend(generated);
        }
    }
    // On Linux, through the host's POSIX form (`hooks simulate`'s host command), two at a time.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<crate::common::Run>>> = cases.iter().map(|_| Default::default()).collect();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(case) = cases.get(index) else { break };
                    let utf8 = Utf8Path::from_path(&case.artifact).expect("UTF-8");
                    let env: Vec<(&str, &str)> = case.linux.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
                    let run = crate::common::run_wrapper(utf8, &case.row.path, &case.stdin, &env);
                    *slots[index].lock().unwrap() = Some(run);
                }
            });
        }
    });
    let linux: Vec<crate::common::Run> = slots.into_iter().map(|s| s.into_inner().unwrap().unwrap()).collect();
    // On Windows, through the host's Windows form.
    let jobs = cases
        .iter()
        .enumerate()
        .map(|(id, case)| {
            let root = windows_path(&plugin_folder(&case.artifact, case.row.host));
            let env: Vec<(&str, &str)> = case.windows.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            job_for(id, &case.artifact, &case.row, &root, &case.stdin, &env)
        })
        .collect::<Result<Vec<Job>, String>>()?;
    let started = Instant::now();
    let windows = run_jobs(wine, &jobs, Duration::from_secs(1800))?;
    let elapsed = started.elapsed();
    let mut differ = Vec::new();
    let mut leaked = Vec::new();
    let mut hosts: BTreeMap<Target, usize> = BTreeMap::new();
    for ((case, linux), windows) in cases.iter().zip(&linux).zip(&windows) {
        *hosts.entry(case.row.host).or_default() += 1;
        // What a handler echoes of its own system: the working folder (the artifact's path there) and
        // its process id (the shared runtime's fallback says which process rendered it).
        let same = |text: &str| {
            let unix = serde_json::to_string(&case.artifact.display().to_string()).unwrap();
            let windows = serde_json::to_string(&windows_path(&case.artifact)).unwrap();
            let text =
                text.replace(windows.trim_matches('"'), "<artifact>").replace(unix.trim_matches('"'), "<artifact>");
            let mut out = String::new();
            let mut rest = text.as_str();
            while let Some(at) = rest.find("in process ") {
                out.push_str(&rest[..at + "in process ".len()]);
                rest = rest[at + "in process ".len()..].trim_start_matches(|c: char| c.is_ascii_digit());
                out.push_str("<pid>");
            }
            out.push_str(rest);
            out
        };
        if windows.timed_out || (linux.code, same(&linux.stdout)) != (windows.code, same(&windows.stdout)) {
            differ.push(format!(
                "{}: Linux exit {:?} stdout {:?}; Windows exit {:?} stdout {:?} stderr {:?}",
                case.label,
                linux.code,
                linux.stdout,
                windows.code,
                windows.stdout,
                windows.stderr.lines().take(3).collect::<Vec<_>>().join(" | ")
            ));
        }
        let leaks = ["must not reach", "raw stdout", "direct write", "child ", "a worker", crate::common::doors::LEAK];
        if leaks.iter().any(|t| windows.stdout.contains(t)) {
            leaked.push(format!("{}: {}", case.label, windows.stdout));
        }
    }
    let denials = cases
        .iter()
        .zip(&windows)
        .filter(|(_, w)| w.code == Some(2) || w.stdout.contains("deny") || w.stdout.contains("block"))
        .count();
    let mean_ms = windows.iter().map(|w| w.ms).sum::<u64>() / windows.len().max(1) as u64;
    let retries = windows.iter().map(|w| w.spawn_retries).sum::<u32>();
    println!(
        "  {} runs of {} hooks' wrappers ({}); {denials} of them denials or blocks; under Wine {:.0} s, {mean_ms} ms a run; {retries} process starts Wine refused and the driver repeated",
        cases.len(),
        cases.iter().map(|c| (&c.artifact, &c.row.path)).collect::<std::collections::BTreeSet<_>>().len(),
        hosts.iter().map(|(h, n)| format!("{h} {n}")).collect::<Vec<_>>().join(", "),
        elapsed.as_secs_f32()
    );
    if !leaked.is_empty() {
        return Err(format!("handler output reached the answer on Windows: {}", leaked.join("; ")));
    }
    if !differ.is_empty() {
        return Err(format!(
            "{} of {} runs differ, the first: {}",
            differ.len(),
            cases.len(),
            differ[..differ.len().min(5)].join("\n    ")
        ));
    }
    Ok(())
}

/// (a) Claude Code's exec form finds its wrapper from every form a host hands the root over in: a
/// Windows path with backslashes or slashes, MSYS's `/z/…`, the token left unexpanded (read from the
/// variable the host sets), and a folder whose path holds a space and letters beyond ASCII; and the
/// forms main emitted before (POSIX redirections, `sh -c`) lose the denial through cmd.exe, which is
/// why they are gone.
pub fn claude_finds_its_wrapper_from_every_root(wine: &Wine) -> Result<(), String> {
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let built = crate::build_into(Path::new("testdata/e2e/deny-shell"), temp.path())?;
    let odd = temp.path().join("Ünïcødé user").join("a plugin");
    std::fs::create_dir_all(&odd).map_err(|e| e.to_string())?;
    crate::copy_tree(&built, &odd).map_err(|e| e.to_string())?;
    let manifest = read_verified(Utf8Path::from_path(&built).unwrap(), &RealDisk).map_err(|e| e.to_string())?;
    let row = manifest.hooks.iter().find(|r| r.host == Target::Claude).ok_or("no Claude Code hook")?.clone();
    let codex = manifest.hooks.iter().find(|r| r.host == Target::Codex).ok_or("no Codex hook")?.clone();
    let envelope = crate::common::envelope_with(&row, json!({ "toolName": "Bash", "toolInput": { "command": "ls" } }));
    let stdin = envelope.to_string().into_bytes();
    let linux = crate::common::run_wrapper(Utf8Path::from_path(&built).unwrap(), &row.path, &stdin, &[]);
    if !linux.stdout.contains("\"deny\"") {
        return Err(format!("on Linux the guard did not deny: {:?}", linux.stdout));
    }
    let native = windows_path(&built);
    let msys = format!("/z{}", built.display());
    let forms: Vec<(&str, String, &Path)> = vec![
        ("a Windows path", native.clone(), &built),
        ("a Windows path with slashes", native.replace('\\', "/"), &built),
        ("an MSYS path", msys, &built),
        // The host sets the variable the token names: the loader reads it.
        ("the token left unexpanded", "${CLAUDE_PLUGIN_ROOT}".into(), &built),
        ("a folder with a space and letters beyond ASCII", windows_path(&odd), &odd),
    ];
    let mut jobs = Vec::new();
    for (id, (_, root, artifact)) in forms.iter().enumerate() {
        let mut job = job_for(id, artifact, &row, root, &stdin, &[])?;
        if root == "${CLAUDE_PLUGIN_ROOT}" {
            job.env.insert("CLAUDE_PLUGIN_ROOT".into(), native.clone());
        }
        jobs.push(job);
    }
    // The forms this replaces, through cmd.exe as Codex runs a command there: the denial is lost.
    let old_forms = [
        format!("node \"{native}\\{}\" 3>&1 1>&2", row.path.replace('/', "\\")),
        format!("sh -c 'exec node \"$1\" 3>&1 1>&2' sh \"{native}\\{}\"", codex.path.replace('/', "\\")),
    ];
    for (offset, command) in old_forms.iter().enumerate() {
        jobs.push(Job {
            id: forms.len() + offset,
            how: "cmd",
            command: Some(command.clone()),
            program: None,
            args: Vec::new(),
            env: BTreeMap::new(),
            cwd: native.clone(),
            stdin: String::from_utf8_lossy(&stdin).into_owned(),
            limit_ms: 60_000,
        });
    }
    let results = run_jobs(wine, &jobs, Duration::from_secs(300))?;
    for ((name, ..), result) in forms.iter().zip(&results) {
        if (result.code, result.stdout.as_str()) != (linux.code, linux.stdout.as_str()) {
            return Err(format!(
                "from {name}: exit {:?}, stdout {:?}, stderr {:?} (Linux: exit {:?}, {:?})",
                result.code, result.stdout, result.stderr, linux.code, linux.stdout
            ));
        }
    }
    for (command, result) in old_forms.iter().zip(&results[forms.len()..]) {
        if result.stdout.contains("deny") {
            return Err(format!("the old form `{command}` kept its denial through cmd.exe: {:?}", result.stdout));
        }
        println!(
            "  the old form `{}` through cmd.exe: exit {:?}, stdout {:?}: the denial is lost",
            short(command),
            result.code,
            result.stdout
        );
    }
    println!("  {} root forms: each the same deny as on Linux", forms.len());
    Ok(())
}

fn short(command: &str) -> String {
    command.split_whitespace().take(2).collect::<Vec<_>>().join(" ") + " …"
}

/// Codex for Windows (`codex.exe` under Wine) with the plugin installed from a local marketplace (`codex
/// plugin marketplace add` and `codex plugin add`), its hooks run through cmd.exe (Wine's do-nothing
/// PowerShell is moved out of its way by scripts/windows-programs.sh), against the mock model.
pub fn run_codex_windows(
    wine: &Wine,
    artifact: &Path,
    plugin_name: &str,
    calls: Vec<Call>,
) -> std::io::Result<HostRun> {
    let temp = tempfile::tempdir()?;
    let (codex_home, work, marketplace) =
        (temp.path().join("codex-home"), temp.path().join("work"), temp.path().join("marketplace"));
    for dir in [&codex_home, &work, &marketplace.join(".claude-plugin")] {
        std::fs::create_dir_all(dir)?;
    }
    let server = MockServer::start(Dialect::OpenAiResponses, calls, work.clone())?;
    write_codex_config(&codex_home, &windows_path(&codex_home.join("catalog.json")), server.port)?;
    write_marketplace(&marketplace, artifact, plugin_name)?;
    let codex = |args: &[String]| {
        let mut command = wine.command(&wine.codex);
        command
            .env("CODEX_HOME", windows_path(&codex_home))
            .env("MOCK_API_KEY", "mock-key")
            .current_dir(&work)
            .args(args);
        command
    };
    let installs = [
        vec!["plugin".to_string(), "marketplace".into(), "add".into(), windows_path(&marketplace)],
        vec!["plugin".to_string(), "add".into(), format!("{plugin_name}@agent-bundle-e2e")],
    ];
    install("codex.exe", &installs, codex)?;
    // Codex's Windows sandbox does not run under Wine (its workspace-write is read-only there), so a
    // call the hooks let through must run with full access to be seen.
    let exec: Vec<String> = vec![
        "exec".into(),
        "--json".into(),
        "--skip-git-repo-check".into(),
        "-s".into(),
        "danger-full-access".into(),
        "-C".into(),
        windows_path(&work),
        "--dangerously-bypass-hook-trust".into(),
        "Run the scripted tool calls, then answer.".into(),
    ];
    let (exit_code, timed_out, stdout, stderr) = run_bounded(codex(&exec), Duration::from_secs(240))?;
    let requests = server.requests();
    Ok(HostRun { exit_code, timed_out, stdout, stderr, requests, work, _temp: temp })
}

/// Claude Code for Windows (`claude.exe` under Wine, no Git Bash: its shell tool is `PowerShell`) with
/// the plugin installed from a local marketplace (`claude plugin marketplace add` and `claude plugin
/// install`), against the mock model.
pub fn run_claude_windows(
    wine: &Wine,
    artifact: &Path,
    plugin_name: &str,
    calls: Vec<Call>,
) -> std::io::Result<HostRun> {
    let temp = tempfile::tempdir()?;
    let (config, tmp, work, marketplace) = (
        temp.path().join("config"),
        temp.path().join("tmp"),
        temp.path().join("work"),
        temp.path().join("marketplace"),
    );
    for dir in [&config, &tmp, &work] {
        std::fs::create_dir_all(dir)?;
    }
    write_marketplace(&marketplace, artifact, plugin_name)?;
    let server = MockServer::start(Dialect::Anthropic, calls, work.clone())?;
    let claude = |args: &[String]| {
        let mut command = wine.command(&wine.claude);
        command
            .env("WINEPATH", &wine.claude_winepath)
            .env("CLAUDE_CONFIG_DIR", windows_path(&config))
            .env("CLAUDE_CODE_TMPDIR", windows_path(&tmp))
            .env("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{}", server.port))
            .env("ANTHROPIC_API_KEY", "mock-key")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("DISABLE_ERROR_REPORTING", "1")
            .current_dir(&work)
            .args(args);
        command
    };
    let installs = [
        vec!["plugin".to_string(), "marketplace".into(), "add".into(), windows_path(&marketplace)],
        vec![
            "plugin".to_string(),
            "install".into(),
            format!("{plugin_name}@agent-bundle-e2e"),
            "--scope".into(),
            "user".into(),
        ],
    ];
    install("claude.exe", &installs, claude)?;
    let session: Vec<String> = vec![
        "-p".into(),
        "Run the scripted tool calls, then answer.".into(),
        "--output-format".into(),
        "stream-json".into(),
        "--verbose".into(),
        "--include-hook-events".into(),
        "--allowedTools".into(),
        "PowerShell,Bash".into(),
    ];
    let (exit_code, timed_out, stdout, stderr) = run_bounded(claude(&session), Duration::from_secs(240))?;
    let requests = server.requests();
    Ok(HostRun { exit_code, timed_out, stdout, stderr, requests, work, _temp: temp })
}

/// Runs a host's install commands (`steps`, each its arguments) in turn; the first that fails fails
/// the run, naming `program`.
fn install(program: &str, steps: &[Vec<String>], command: impl Fn(&[String]) -> Command) -> std::io::Result<()> {
    for args in steps {
        let (code, _, out, err) = run_bounded(command(args), Duration::from_secs(120))?;
        if code != Some(0) {
            return Err(std::io::Error::other(format!("{program} {args:?} failed: {out} {err}")));
        }
    }
    Ok(())
}

/// Whether Wine, not the host, ended the run: its client library lost the connection to the
/// wineserver (`wine client error:…`), which it prints before the process dies.
pub fn wine_lost_the_process(run: &HostRun) -> bool {
    run.exit_code != Some(0) && run.stderr.contains("wine client error")
}

/// A host's Windows build, as the Windows scenarios name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowsHost {
    Codex,
    Claude,
}

impl WindowsHost {
    pub fn name(self) -> &'static str {
        match self {
            WindowsHost::Codex => "codex for windows",
            WindowsHost::Claude => "claude for windows",
        }
    }
}

pub struct WindowsScenario {
    pub name: &'static str,
    /// The bundle under `testdata/`.
    pub bundle: &'static str,
    /// The hosts it runs on.
    pub hosts: &'static [WindowsHost],
    pub calls: fn() -> Vec<Call>,
    pub check: fn(WindowsHost, &HostRun) -> Result<(), String>,
}

const BOTH: &[WindowsHost] = &[WindowsHost::Codex, WindowsHost::Claude];

const MARKER: &str = "marker.txt";

fn shell_marker() -> Vec<Call> {
    vec![Call::Shell(format!("echo hi > {MARKER}"))]
}

fn ensure(condition: bool, message: impl Into<String>) -> Result<(), String> {
    if condition { Ok(()) } else { Err(message.into()) }
}

fn finished(run: &HostRun) -> Result<(), String> {
    ensure(!run.timed_out, "the host did not finish in time")?;
    ensure(run.exit_code == Some(0), format!("the host exited {:?}", run.exit_code))
}

/// The call did not run. Codex runs it through cmd.exe, so a marker it writes shows; Claude Code
/// for Windows runs it through its PowerShell, which Wine only stands in for (it runs nothing), so
/// there the tool's result must be the hook's refusal, not the tool's.
fn refused(host: WindowsHost, run: &HostRun) -> Result<(), String> {
    match host {
        WindowsHost::Codex => ensure(!run.work.join(MARKER).is_file(), "the refused command ran"),
        WindowsHost::Claude => ensure(
            tool_results(run).iter().any(|r| r["is_error"] == true),
            "Claude Code reported no refused call to the model",
        ),
    }
}

/// The call ran: its marker (Codex), or a tool result Claude Code's PowerShell gave that is not an
/// error (Claude Code).
fn ran(host: WindowsHost, run: &HostRun) -> Result<(), String> {
    match host {
        WindowsHost::Codex => ensure(run.work.join(MARKER).is_file(), "the command did not run"),
        WindowsHost::Claude => {
            let results = tool_results(run);
            ensure(!results.is_empty(), "Claude Code sent no tool result")?;
            ensure(results.iter().all(|r| r["is_error"] != true), format!("the call was refused: {results:?}"))
        }
    }
}

/// Every tool result Claude Code sent the model.
fn tool_results(run: &HostRun) -> Vec<serde_json::Value> {
    run.requests
        .iter()
        .flat_map(|r| r["messages"].as_array().cloned().unwrap_or_default())
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["type"] == "tool_result")
        .collect()
}

fn any_request_contains(run: &HostRun, needle: &str) -> bool {
    run.requests.iter().any(|r| r.to_string().contains(needle))
}

/// (b) What the hosts' Windows builds do with the emitted plugins.
pub fn scenarios() -> Vec<WindowsScenario> {
    vec![
        WindowsScenario {
            name: "beforeTool deny blocks the shell command and the model gets the reason",
            bundle: "e2e/deny-shell",
            hosts: BOTH,
            calls: shell_marker,
            check: |host, run| {
                finished(run)?;
                refused(host, run)?;
                ensure(any_request_contains(run, "E2E_DENY_REASON"), "no model request carried the denial reason")
            },
        },
        WindowsScenario {
            name: "beforeTool continue lets the command run",
            bundle: "e2e/continue-shell",
            hosts: BOTH,
            calls: shell_marker,
            check: |host, run| {
                finished(run)?;
                ran(host, run)
            },
        },
        WindowsScenario {
            name: "sessionStart additionalContext reaches the first model request",
            bundle: "e2e/session-context",
            hosts: BOTH,
            calls: Vec::new,
            check: |_, run| {
                finished(run)?;
                ensure(
                    run.requests.first().is_some_and(|r| r.to_string().contains("E2E_SESSION_MARKER")),
                    "the first request did not carry the session context",
                )
            },
        },
        WindowsScenario {
            name: "a fail-closed guard that throws blocks the command, and the model gets the reason",
            bundle: "e2e/fail-closed-throws",
            hosts: BOTH,
            calls: shell_marker,
            check: |host, run| {
                finished(run)?;
                refused(host, run)?;
                ensure(any_request_contains(run, "E2E_FAIL_CLOSED"), "no model request carried the guard's failure")
            },
        },
        // The plugin's warm server (issue 46), under Windows Node started by Claude Code for Windows.
        WindowsScenario {
            name: "the plugin's warm server answers a guard, a spinning hook, an after-tool context and a route through mcp_tool entries",
            bundle: "e2e/warm-server",
            hosts: &[WindowsHost::Claude],
            calls: || {
                vec![Call::Shell("echo E2E_GO_AWAY > denied.txt".into()), Call::Shell(format!("echo ok > {MARKER}"))]
            },
            check: |host, run| {
                finished(run)?;
                refused(host, run)?;
                for (text, what) in [
                    ("E2E_WARM_DENY from the warm server", "the guard's denial from the warm server"),
                    ("E2E_WARM_AFTER: context after the tool, from the warm server", "the after-tool context"),
                    ("E2E_WARM_ROUTE: from the warm server", "the route's context"),
                ] {
                    ensure(any_request_contains(run, text), format!("no model request carried {what}"))?;
                }
                Ok(())
            },
        },
    ]
}

/// The stand-in DLL (testdata/windows/standin) does what it is for and no more: `ProcessPrng` fills a
/// buffer, an unlock of what the handle does not hold locked fails with Windows' 158 (Wine 8.0 says
/// 33), a real unlock succeeds, and another error stays what it was.
pub fn the_standin_supplies_what_wine_lacks(wine: &Wine) -> Result<(), String> {
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let exe = temp.path().join("check.exe");
    let built = Command::new("x86_64-w64-mingw32-gcc")
        .args(["-O2", "-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg("testdata/windows/standin/check.c")
        .arg(wine.codex.with_file_name("bcryptprimitives.dll"))
        .output()
        .map_err(|e| format!("x86_64-w64-mingw32-gcc: {e} (scripts/windows-programs.sh installs it)"))?;
    if !built.status.success() {
        return Err(format!("the check does not build: {}", String::from_utf8_lossy(&built.stderr)));
    }
    std::fs::copy(wine.codex.with_file_name("bcryptprimitives.dll"), temp.path().join("bcryptprimitives.dll"))
        .map_err(|e| e.to_string())?;
    let mut command = wine.command(&exe);
    command.arg(windows_path(&temp.path().join("lock.tmp"))).current_dir(temp.path());
    let (code, _, stdout, stderr) = run_bounded(command, Duration::from_secs(60)).map_err(|e| e.to_string())?;
    if code != Some(0) {
        return Err(format!("the check exited {code:?}: {stdout} {stderr}"));
    }
    let found: BTreeMap<&str, &str> = stdout.split_whitespace().filter_map(|pair| pair.split_once('=')).collect();
    let expected = [
        ("prng", "1"),
        ("lock", "0"),
        ("unlock_locked", "0"),
        ("unlock_again", "158"),
        ("unlock_ex_again", "158"),
        ("unlock_other_range", "158"),
        ("unlock_range", "0"),
        ("unlock_bad_handle", "6"),
    ];
    for (name, value) in expected {
        if found.get(name) != Some(&value) {
            return Err(format!("{name} is {:?}, not {value}: {stdout}", found.get(name)));
        }
    }
    if found.get("nonzero").and_then(|n| n.parse::<u32>().ok()).is_none_or(|n| n < 16) {
        return Err(format!("ProcessPrng left the buffer mostly zero: {stdout}"));
    }
    Ok(())
}
