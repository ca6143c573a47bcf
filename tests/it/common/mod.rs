//! Helpers shared by the integration tests: building a bundle into a temporary folder and running
//! an emitted wrapper under the real `node`.

pub mod deep;
pub mod doors;
pub mod engines;

use std::io::Write;
use std::process::{Command, Stdio};

use agent_bundle::driver::{BuildOptions, build};
use agent_bundle::io::RealDisk;
use camino::{Utf8Path, Utf8PathBuf};

/// A fresh folder under cargo's per-target temporary directory (never the developer's own cache or
/// home): each call gets its own, so no test shares state with another by accident.
pub fn sandbox_dir(what: &str) -> Utf8PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = Utf8PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("sandbox")
        .join(format!("{what}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The real binary, run as a user would in a clean shell: the environment cleared but for `PATH`
/// (node and npm come from it), with its own `HOME` and its own cache folder, so that neither the
/// developer's cache nor variables such as `CI`, `XDG_CACHE_HOME` or fault injection leak in.
pub fn cli() -> Command {
    let mut command = Command::new(insta_cmd::get_cargo_bin("cargo-agent-bundle"));
    let sandbox = sandbox_dir("cli");
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", sandbox.join("home"))
        .env("AGENT_BUNDLE_CACHE_DIR", sandbox.join("cache"));
    // `--workspace` runs cargo metadata: keep the toolchain the tests themselves run with.
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from).unwrap_or_default();
    command
        .env("RUSTUP_HOME", std::env::var_os("RUSTUP_HOME").unwrap_or_else(|| home.join(".rustup").into()))
        .env("CARGO_HOME", std::env::var_os("CARGO_HOME").unwrap_or_else(|| home.join(".cargo").into()));
    for passed in ["CARGO", "RUSTUP_TOOLCHAIN"] {
        if let Some(value) = std::env::var_os(passed) {
            command.env(passed, value);
        }
    }
    command
}

/// The real binary for commands whose output is snapshotted (`insta_cmd` records every variable a
/// command sets, which would put this machine's paths into the snapshots): the variables that change
/// the binary's behaviour are removed instead of replaced. Only for commands that use no cache.
pub fn cli_snapshot() -> Command {
    let mut command = Command::new(insta_cmd::get_cargo_bin("cargo-agent-bundle"));
    for variable in
        ["CI", "GITHUB_ACTIONS", "XDG_CACHE_HOME", "AGENT_BUNDLE_CACHE_DIR", "AGENT_BUNDLE_FAULT_AFTER_WRITES"]
    {
        command.env_remove(variable);
    }
    command
}

/// Fails with a clear message when node is missing: wrappers are only proven by the real node.
pub fn require_node() {
    let found = Command::new("node").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    assert!(found, "these tests run the emitted wrappers under Node.js 18+, and `node` is not on PATH; install it");
}

/// Builds `testdata/bundles/<name>` into a fresh temporary folder and returns (guard, artifact path).
pub fn build_bundle(name: &str) -> (tempfile::TempDir, Utf8PathBuf) {
    build_root(Utf8Path::new("testdata/bundles").join(name).as_path())
}

pub fn build_root(root: &Utf8Path) -> (tempfile::TempDir, Utf8PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let output = Utf8PathBuf::from_path_buf(temp.path().join("artifact")).unwrap();
    let options = BuildOptions {
        root: root.to_path_buf(),
        output: Some(output.clone()),
        targets: Vec::new(),
        cache_dir: Some(Utf8PathBuf::from_path_buf(temp.path().join("cache")).unwrap()),
        ..Default::default()
    };
    let report = build(&options, &RealDisk).unwrap();
    let codes: Vec<_> = report.diagnostics().iter().map(|d| format!("{}: {}", d.code, d.message)).collect();
    assert!(!report.has_errors(), "building {root} failed: {codes:#?}");
    (temp, output)
}

/// A bundle of one handler (`src/hooks/<file>` holding `handler`) and `config`, built with no cache,
/// and its artifact copied away from the source tree (no node_modules above it), as a host runs it:
/// the guard that keeps the copy, and the copy's path.
pub fn one_handler_artifact(file: &str, handler: &str, config: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    bundle_artifact(&[(&format!("src/hooks/{file}"), handler), ("agent-bundle.config.ts", config)])
}

/// A bundle of `files` (bundle-relative path, text), built with no cache, and its artifact copied
/// away from the source tree (no node_modules above it), as a host runs it: the guard that keeps
/// the copy, and the copy's path.
pub fn bundle_artifact(files: &[(&str, &str)]) -> (tempfile::TempDir, std::path::PathBuf) {
    let work = tempfile::tempdir().unwrap();
    let bundle = work.path().join("bundle");
    for (path, text) in files {
        write_file(&bundle, path, text);
    }
    let options = BuildOptions {
        root: Utf8PathBuf::from_path_buf(bundle).unwrap(),
        output: Some(Utf8PathBuf::from_path_buf(work.path().join("artifact")).unwrap()),
        no_cache: true,
        ..Default::default()
    };
    let report = build(&options, &RealDisk).unwrap();
    assert!(!report.has_errors(), "{:?}", report.diagnostics());
    let away = tempfile::tempdir().unwrap();
    let artifact = away.path().join("artifact");
    copy_tree(&work.path().join("artifact"), &artifact);
    (away, artifact)
}

pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs a wrapper with `stdin` as the host would (the command its host's document holds, through the
/// host's shell: `hooks simulate`'s [`host_command`](agent_bundle::tools::simulate::host_command)),
/// plus extra environment variables.
pub fn run_wrapper(artifact: &Utf8Path, wrapper: &str, stdin: &[u8], env: &[(&str, &str)]) -> Run {
    let _slot = node_slot();
    let text = std::fs::read_to_string(artifact.join(agent_bundle::artifact::MANIFEST_PATH)).unwrap();
    let manifest: agent_bundle::artifact::ArtifactManifest = serde_json::from_str(&text).unwrap();
    // A combined command's wrapper stands for its hooks: the host's entry runs it for all of them.
    let row = manifest
        .hooks
        .iter()
        .find(|row| row.path == wrapper)
        .cloned()
        .or_else(|| {
            let member = manifest.hooks.iter().find(|row| row.combined.as_deref() == Some(wrapper))?;
            Some(agent_bundle::artifact::IndexRow { path: wrapper.to_string(), combined: None, ..member.clone() })
        })
        .unwrap_or_else(|| panic!("no hook runs {wrapper}"));
    let mut command = agent_bundle::tools::simulate::host_command(artifact, &row).unwrap();
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child =
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the shell runs");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The wrapper may refuse and exit before reading everything (the 1 MiB cap).
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Holds one of as many slots as the machine has cores while a wrapper's node process runs: the
/// tests of one binary run side by side, and a wrapper whose hook has a 2 s budget must not miss it
/// because a dozen other node processes start on the same two cores at once (issue 26, item 8).
/// The slot bounds how many run, not how long one may take.
pub fn node_slot() -> impl Drop {
    use std::sync::{Condvar, Mutex, OnceLock};
    static SLOTS: OnceLock<(Mutex<usize>, Condvar, usize)> = OnceLock::new();
    let (free, freed, _) = SLOTS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        (Mutex::new(cores), Condvar::new(), cores)
    });
    let mut count = free.lock().unwrap_or_else(|e| e.into_inner());
    while *count == 0 {
        count = freed.wait(count).unwrap_or_else(|e| e.into_inner());
    }
    *count -= 1;
    struct Slot(&'static Mutex<usize>, &'static Condvar);
    impl Drop for Slot {
        fn drop(&mut self) {
            *self.0.lock().unwrap_or_else(|e| e.into_inner()) += 1;
            self.1.notify_one();
        }
    }
    Slot(free, freed)
}

/// One wrapper decision for [`decide_all`]: the wrapper, its stdin, extra environment variables.
pub struct Case<'a> {
    pub wrapper: &'a str,
    pub stdin: &'a [u8],
    pub env: &'a [(&'a str, &'a str)],
}

/// Runs a harness of `tests/support/` under node in `artifact`, with `cases` as its input file and a
/// result per case as its output file (both in `work`).
pub fn node_harness(
    script: &str,
    artifact: &Utf8Path,
    work: &Utf8Path,
    cases: &[serde_json::Value],
) -> Vec<serde_json::Value> {
    std::fs::write(work.join("cases.json"), serde_json::to_vec(cases).unwrap()).unwrap();
    let path = Utf8Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support").join(script);
    let output = Command::new("node")
        .arg(path)
        .arg(artifact)
        .arg(work.join("cases.json"))
        .arg(work.join("results.json"))
        .current_dir(artifact)
        .output()
        .expect("node runs");
    assert!(output.status.success(), "{script} failed: {}", String::from_utf8_lossy(&output.stderr));
    let results: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(work.join("results.json")).unwrap()).unwrap();
    assert_eq!(results.len(), cases.len(), "{script} answered another number of cases");
    results
}

/// Runs many wrapper decisions in one node process (`tests/support/decide.mjs`), through the
/// artifact's own runtime: what each wrapper's process would exit with and print, for results that
/// do not depend on the process itself (those keep running in [`run_wrapper`]).
pub fn decide_all(artifact: &Utf8Path, cases: &[Case<'_>]) -> Vec<Run> {
    let work = sandbox_dir("decide");
    let cases_json: Vec<serde_json::Value> = cases
        .iter()
        .map(|c| {
            let env: serde_json::Map<String, serde_json::Value> =
                c.env.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(*v))).collect();
            serde_json::json!({ "wrapper": c.wrapper, "stdin": c.stdin, "env": env })
        })
        .collect();
    node_harness("decide.mjs", artifact, &work, &cases_json)
        .into_iter()
        .map(|r| Run {
            code: r["code"].as_i64().map(|c| c as i32),
            stdout: r["stdout"].as_str().unwrap_or("").to_string(),
            stderr: r["stderr"].as_array().unwrap().iter().map(|l| format!("{}\n", l.as_str().unwrap())).collect(),
        })
        .collect()
}

/// One envelope a real host wrote, from `testdata/envelopes/<host folder>/`.
pub struct Recorded {
    /// `claude-code/PreToolUse.json`.
    pub name: String,
    pub host: agent_bundle::vocabulary::target::Target,
    pub bytes: Vec<u8>,
    /// Its `hook_event_name`.
    pub native: String,
}

/// Every recorded Claude Code, Codex, Copilot CLI, Factory Droid, Gemini CLI and Qwen Code envelope, sorted by file (the
/// folders' notes left out). Copilot's camelCase envelopes name no event: their file names do.
pub fn recorded_envelopes() -> Vec<Recorded> {
    use agent_bundle::vocabulary::target::Target;
    let mut recorded = Vec::new();
    let folders = [
        ("claude-code", Target::Claude),
        ("codex", Target::Codex),
        ("copilot-cli", Target::Copilot),
        ("factory-droid", Target::Droid),
        ("gemini-cli", Target::Gemini),
        ("qwen-code", Target::Qwen),
    ];
    for (folder, host) in folders {
        let dir = std::path::Path::new("testdata/envelopes").join(folder);
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for path in files {
            let file = path.file_name().unwrap().to_str().unwrap().to_string();
            if ["SOURCES.json", "effects.json", "hook-env.json"].contains(&file.as_str()) || path.is_dir() {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let envelope: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            let native = match envelope["hook_event_name"].as_str() {
                Some(name) => name.to_string(),
                None => file.split('.').next().unwrap().to_string(),
            };
            recorded.push(Recorded { name: format!("{folder}/{file}"), host, bytes, native });
        }
    }
    recorded
}

/// A wrapper run as snapshots show it: exit code, stdout and stderr, the artifact's path redacted.
pub fn describe(run: &Run, artifact: &Utf8Path) -> String {
    let show = |text: &str| if text.is_empty() { "(empty)".to_string() } else { redact(text.trim_end(), artifact) };
    format!("exit {:?}\nstdout {}\nstderr {}\n", run.code, show(&run.stdout), show(&run.stderr))
}

/// Replaces the temporary artifact path in text with `[ARTIFACT]`.
pub fn redact(text: &str, artifact: &Utf8Path) -> String {
    text.replace(artifact.as_str(), "[ARTIFACT]")
}

/// A copy of the bundle at `bundle` in `to` whose config also targets `target` (the scenarios'
/// bundles name the hosts they run in): the name joins the config's own list, its last `targets`.
pub fn copy_adding_target(bundle: &std::path::Path, to: &std::path::Path, target: &str) {
    copy_tree(bundle, to);
    let config = to.join("agent-bundle.config.ts");
    let text = std::fs::read_to_string(&config).unwrap();
    if !text.contains(&format!("'{target}'")) {
        let at = text.rfind("targets: ['").unwrap_or_else(|| panic!("{} names its targets", bundle.display()))
            + "targets: [".len();
        std::fs::write(&config, format!("{}'{target}', {}", &text[..at], &text[at..])).unwrap();
    }
}

pub fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Every file under `dir` with its bytes, by `/`-separated relative path.
pub fn read_tree(dir: &Utf8Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    use agent_bundle::io::Disk;
    let disk = agent_bundle::io::RealDisk;
    disk.walk_files(dir)
        .unwrap()
        .into_iter()
        .map(|path| (path.clone(), std::fs::read(dir.join(&path)).unwrap()))
        .collect()
}

/// The folder of real npm packages the bundler is tested against (`testdata/npm`), installed from
/// its lockfile with `npm ci` when its `node_modules` does not match the lockfile (once, under a
/// lock, so parallel tests wait for one install). Fails with a clear message when npm cannot run.
pub fn npm_fixture() -> Utf8PathBuf {
    let dir = Utf8PathBuf::from("testdata/npm");
    npm_installed(&dir);
    dir
}

/// Installs a folder's npm packages from its lockfile (`npm ci`) unless its node_modules already
/// matches the lockfile.
pub fn npm_installed(dir: &Utf8Path) {
    install_once(dir, "package-lock.json", &[&["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"]]);
}

/// A bundle's node_modules as `npm install` of init's package.json makes it, from the packages
/// `testdata/typescript` pins (installed once, from its lockfile): a link per package (and to the
/// `.bin` folder) in a node_modules folder of the bundle's own, so what a tool writes there (vitest's
/// cache) stays in the bundle.
pub fn linked_test_packages(bundle: &std::path::Path) {
    let fixture = Utf8Path::new("testdata/typescript");
    npm_installed(fixture);
    let installed = std::fs::canonicalize(fixture.join("node_modules")).unwrap();
    let own = bundle.join("node_modules");
    std::fs::create_dir_all(&own).unwrap();
    for entry in std::fs::read_dir(&installed).unwrap() {
        let name = entry.unwrap().file_name();
        let text = name.to_string_lossy();
        if text.starts_with(".vite") || text == ".agent-bundle-installed" || text == ".package-lock.json" {
            continue;
        }
        std::os::unix::fs::symlink(installed.join(&name), own.join(&name)).unwrap();
    }
}

/// The pnpm project (`testdata/pnpm`), installed by the pinned pnpm (itself installed with npm into
/// `target/test-tools`) with a frozen lockfile.
pub fn pnpm_fixture() -> Utf8PathBuf {
    let tools = Utf8PathBuf::from("target/test-tools");
    std::fs::create_dir_all(&tools).unwrap();
    std::fs::write(
        tools.join("package.json"),
        "{ \"name\": \"agent-bundle-test-tools\", \"private\": true, \"dependencies\": { \"pnpm\": \"9.15.9\" } }\n",
    )
    .unwrap();
    install_once(&tools, "package.json", &[&["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts"]]);
    let pnpm = std::fs::canonicalize(tools.join("node_modules/.bin/pnpm")).expect("pnpm is installed");
    let store = std::fs::canonicalize(&tools).unwrap().join("pnpm-store");
    let dir = Utf8PathBuf::from("testdata/pnpm");
    let pnpm = pnpm.to_string_lossy().into_owned();
    let store = format!("--store-dir={}", store.display());
    install_once(
        &dir,
        "pnpm-lock.yaml",
        &[&[pnpm.as_str(), "install", "--frozen-lockfile", "--ignore-scripts", &store]],
    );
    dir
}

fn install_once(dir: &Utf8Path, lockfile: &str, commands: &[&[&str]]) {
    let wanted = agent_bundle::vocabulary::digest::sha256_hex(&std::fs::read(dir.join(lockfile)).unwrap());
    let stamp = dir.join("node_modules/.agent-bundle-installed");
    if std::fs::read_to_string(&stamp).is_ok_and(|s| s == wanted) {
        return;
    }
    let lock = std::fs::File::create(dir.join(".install.lock")).unwrap();
    lock.lock().unwrap();
    if std::fs::read_to_string(&stamp).is_ok_and(|s| s == wanted) {
        return;
    }
    for command in commands {
        let output = Command::new(command[0]).args(&command[1..]).current_dir(dir).output().unwrap_or_else(|e| {
            panic!("these tests install real packages with `{}` and it cannot run: {e}", command[0])
        });
        assert!(
            output.status.success(),
            "`{}` in {dir} failed (the tests need the npm registry once):\n{}",
            command.join(" "),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    std::fs::write(&stamp, wanted).unwrap();
}

/// A canonical route input holding every payload field of any family; each host and family keeps
/// the fields it knows.
pub fn canonical_superset() -> serde_json::Value {
    serde_json::json!({
        "sessionId": "session-1",
        "transcriptPath": "/tmp/transcript.jsonl",
        "cwd": "/tmp/project",
        "permissionMode": "default",
        "model": "test-model",
        "turnId": "turn-1",
        "source": "startup",
        "toolName": "Bash",
        "toolInput": { "command": "echo hi" },
        "toolUseId": "toolu_1",
        "toolResponse": { "stdout": "hi" },
        "reentry": false,
        // What config payloads call `reentry`.
        "reentry": false,
        "lastAssistantMessage": "done",
        "agentId": "agent-1",
        "agentType": "Explore",
        "agentTranscriptPath": "/tmp/agent.jsonl",
        "workspaceRoots": ["/tmp/project"],
        "reason": "other",
        "prompt": "please list the files",
        "error": "Exit code 1",
        "isInterrupt": false,
        "trigger": "manual",
        "filePath": "/tmp/project/.env",
        "taskId": "task-1",
        "taskSubject": "write the tests",
        "taskDescription": "all of them",
        "teammateName": "ada",
        "teamName": "core",
        "fromModel": "model-a",
        "toModel": "model-b",
        "requestedModel": "model-b",
    })
}

/// The native envelope a host sends for `row`: the canonical superset with `overrides` on top, less
/// the fields that host and event do not know, encoded as `hooks simulate` encodes it (and with the
/// values a host's schema insists on where the superset's would not do).
pub fn envelope_with(row: &agent_bundle::artifact::IndexRow, overrides: serde_json::Value) -> serde_json::Value {
    let table = agent_bundle::hosts::table(row.host);
    let surface = table.hooks.as_ref().unwrap();
    let mapping = table.mapping(row.event).unwrap();
    let known: Vec<String> = surface.input_fields(mapping).filter_map(|f| f.canonical.clone()).collect();
    let mut input = canonical_superset();
    for (key, value) in overrides.as_object().unwrap() {
        input[key] = value.clone();
    }
    if row.host == agent_bundle::vocabulary::target::Target::Cursor && row.event.name() == "session/end" {
        input["reason"] = serde_json::json!("completed");
    }
    input.as_object_mut().unwrap().retain(|key, _| known.contains(key));
    agent_bundle::tools::simulate::encode(row, &input).unwrap()
}

/// A small deterministic generator (xorshift64*), so a property test's failure replays from its seed.
pub struct Random(pub u64);

impl Random {
    /// A generator for `seed`, mixed so that small neighbouring seeds start far apart (never zero).
    pub fn seeded(seed: u64) -> Random {
        Random(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Writes `text` to `root/path`, creating its folders.
pub fn write_file(root: &std::path::Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A `Path` as the library's `Utf8PathBuf`.
pub fn utf8(path: &std::path::Path) -> Utf8PathBuf {
    Utf8PathBuf::from_path_buf(path.to_path_buf()).expect("test paths are UTF-8")
}

/// Every bundle under `testdata/bundles/` (a folder holding a config), sorted.
pub fn testdata_bundles() -> Vec<std::path::PathBuf> {
    let mut bundles: Vec<std::path::PathBuf> = std::fs::read_dir("testdata/bundles")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("agent-bundle.config.ts").is_file())
        .collect();
    bundles.sort();
    assert!(bundles.len() >= 13, "{bundles:?}");
    bundles
}

/// Runs a node harness script (`tests/support/<script>`) with `args`, `input` as JSON on its stdin,
/// and returns the JSON it prints; fails with its stderr when it fails.
pub fn node_json(script: &str, args: &[&std::ffi::OsStr], input: &serde_json::Value) -> serde_json::Value {
    require_node();
    let mut child = Command::new("node")
        .arg(format!("tests/support/{script}"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.to_string().as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{script}: {stderr}");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{script}: {e}: {stderr}"))
}

/// What Claude Code's `mcp_tool` entry hands the server for `envelope`: each `${field}` of the entry's
/// `input` template replaced by the envelope's value (an object as its JSON, an absent value as '').
pub fn claude_interpolated(template: &serde_json::Value, envelope: &serde_json::Value) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    for (key, value) in template.as_object().expect("an entry's input is an object") {
        let text = value.as_str().expect("an entry's input values are strings");
        let filled = match text.strip_prefix("${").and_then(|t| t.strip_suffix('}')) {
            Some(field) => match &envelope[field] {
                serde_json::Value::Null => String::new(),
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            },
            None => text.to_string(),
        };
        out.insert(key.clone(), filled.into());
    }
    serde_json::Value::Object(out)
}
