//! Builds cached and shared through Turborepo's remote cache (issue 28, D15), with the real tools:
//! turbo 2.11.13 and the self-hosted remote cache server turborepo-remote-cache 2.12.0 (local
//! storage), both pinned in testdata/engines. Clone A of the engines workspace builds every bundle
//! and uploads it; clone B, at another absolute path with empty local caches, restores every bundle
//! from the remote cache byte for byte without building; then an edited handler misses only its own
//! bundle, and an edited module outside the packages (declared as `$TURBO_ROOT$/…` by
//! `init --monorepo turbo`) misses them all.
//!
//! The settings, as a user would have them: each clone is a git repository whose `.gitignore` keeps
//! out what builds leave in a package (`artifact/`, agent-bundle's `.artifact.lock`, turbo's own
//! `.turbo/` logs), since turbo hashes a package's files less the ignored ones (without git it walks
//! the folder honouring `.gitignore` the same way; without that file every second run misses). Turbo
//! runs in its default strict environment mode: the task sees only `PATH`, `HOME`, turbo's own
//! variables and what turbo.json names; the hash covers `AGENT_BUNDLE_COMPILER` (the bundles' `env`),
//! and `AGENT_BUNDLE_CACHE_DIR` is passed through without being hashed (`globalPassThroughEnv` in the
//! root turbo.json `init --monorepo turbo` writes), since where agent-bundle keeps its cache changes no
//! output.
//!
//! The helpers are shared with `benches/remote_cache.rs`, which includes this file.

use crate::common;

pub use common::engines::{SHORT, agent_bundle, compiler_id, engines, git, path_with_binary, run_bounded};

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The npm-workspaces monorepo of three bundles.
pub const WORKSPACE: &str = "testdata/engines-workspace";
/// The remote cache's one accepted bearer token (its `TURBO_TOKEN`, turbo's `TURBO_TOKEN`).
pub const TOKEN: &str = "agent-bundle-test-token";
/// The team turbo sends (`?slug=`); the server stores an artifact as `<storage>/<team>/<hash>`.
pub const TEAM: &str = "agent-bundle";
/// What the clones ignore, as a user's repository would.
pub const GITIGNORE: &str = "node_modules/\n.turbo/\nartifact/\n.artifact.lock\n";
/// How long the server may take to answer its status route after starting.
const SERVER_START: Duration = Duration::from_secs(60);
/// A hang guard for one `turbo run` of the three-bundle workspace.
const TURBO_RUN: Duration = Duration::from_secs(300);

/// The self-hosted remote cache server, on 127.0.0.1 on a port the system chose; killed (its whole
/// process group) when dropped.
pub struct CacheServer {
    child: Child,
    pub port: u16,
    /// Its local storage: an uploaded artifact is `<storage>/<team>/<hash>`.
    pub storage: PathBuf,
    log: PathBuf,
}

impl CacheServer {
    /// Starts the server from the pinned engines with local storage in `dir/storage`, and waits
    /// (at most a minute) until its status route answers with the token.
    pub fn start(engines: &Path, dir: &Path) -> CacheServer {
        let storage = dir.join("storage");
        std::fs::create_dir_all(&storage).unwrap();
        std::fs::create_dir_all(dir.join("home")).unwrap();
        let log = dir.join("server.log");
        let log_file = std::fs::File::create(&log).unwrap();
        // Its settings are environment variables (dist/env.js): PORT 0 lets the system pick a free
        // port, which the server logs; STORAGE_PATH_USE_TMP_FOLDER=false takes STORAGE_PATH as is
        // (otherwise it is a folder under os.tmpdir()); static auth accepts only TURBO_TOKEN.
        let child = Command::new("node")
            .arg(engines.join("node_modules/turborepo-remote-cache/dist/cli.js"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", dir.join("home"))
            .env("NODE_ENV", "production")
            .env("HOST", "127.0.0.1")
            .env("PORT", "0")
            .env("STORAGE_PROVIDER", "local")
            .env("STORAGE_PATH", &storage)
            .env("STORAGE_PATH_USE_TMP_FOLDER", "false")
            .env("AUTH_MODE", "static")
            .env("TURBO_TOKEN", TOKEN)
            .env("LOG_LEVEL", "info")
            .stdin(Stdio::null())
            .stdout(log_file.try_clone().unwrap())
            .stderr(log_file)
            .process_group(0)
            .spawn()
            .expect("node starts turborepo-remote-cache");
        // From here on, a failure drops the guard, which kills the server.
        let mut server = CacheServer { child, port: 0, storage, log };
        let deadline = Instant::now() + SERVER_START;
        loop {
            if let Some(port) = server.logged_port()
                && http_status(port, "/v8/artifacts/status") == Some(200)
            {
                server.port = port;
                return server;
            }
            if let Some(status) = server.child.try_wait().unwrap() {
                panic!("turborepo-remote-cache exited ({status}) before answering:\n{}", server.log_text());
            }
            assert!(
                Instant::now() < deadline,
                "turborepo-remote-cache did not answer within {} s:\n{}",
                SERVER_START.as_secs(),
                server.log_text()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// What the server logged (one JSON object a line).
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The port of fastify's "Server listening at http://127.0.0.1:<port>", once logged.
    fn logged_port(&self) -> Option<u16> {
        self.log_text().lines().find_map(|line| {
            let entry: Value = serde_json::from_str(line).ok()?;
            entry["message"].as_str()?.strip_prefix("Server listening at http://127.0.0.1:")?.parse().ok()
        })
    }

    pub fn api(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The size of the artifact stored for a task hash, if one was uploaded.
    pub fn stored(&self, hash: &str) -> Option<u64> {
        std::fs::metadata(self.storage.join(TEAM).join(hash)).ok().map(|m| m.len())
    }

    /// How many artifacts the server holds.
    pub fn stored_count(&self) -> usize {
        std::fs::read_dir(self.storage.join(TEAM)).map(|entries| entries.count()).unwrap_or(0)
    }
}

impl Drop for CacheServer {
    fn drop(&mut self) {
        // SAFETY: kill(2) on the process group `start` created.
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

/// The status code of a GET with the token, or `None` when nothing answers (bounded by socket
/// timeouts).
fn http_status(port: u16, path: &str) -> Option<u16> {
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let mut stream = std::net::TcpStream::connect_timeout(&address, Duration::from_secs(5)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    stream.set_write_timeout(Some(Duration::from_secs(5))).ok()?;
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    response.split_whitespace().nth(1)?.parse().ok()
}

/// One checkout of the workspace and the state of its own machine: a `HOME`, turbo's local cache and
/// agent-bundle's cache, all outside the workspace.
pub struct Checkout {
    pub ws: PathBuf,
    pub home: PathBuf,
    pub turbo_cache: PathBuf,
    pub agent_bundle_cache: PathBuf,
}

impl Checkout {
    /// A checkout at `ws` whose machine state lives in `state` (created empty).
    pub fn new(ws: PathBuf, state: &Path) -> Checkout {
        let home = state.join("home");
        std::fs::create_dir_all(&home).unwrap();
        // npm runs each package's script: no update check against the registry.
        std::fs::write(home.join(".npmrc"), "update-notifier=false\nfund=false\naudit=false\n").unwrap();
        Checkout {
            ws,
            home,
            turbo_cache: state.join("turbo-cache"),
            agent_bundle_cache: state.join("agent-bundle-cache"),
        }
    }

    /// A git clone of `origin` (its committed files only) at `ws`.
    pub fn clone_of(origin: &Checkout, ws: PathBuf, state: &Path) -> Checkout {
        let checkout = Checkout::new(ws, state);
        std::fs::create_dir_all(checkout.ws.parent().unwrap()).unwrap();
        git(
            checkout.ws.parent().unwrap(),
            &checkout.home,
            &["clone", "--quiet", "--no-hardlinks", origin.ws.to_str().unwrap(), checkout.ws.to_str().unwrap()],
        );
        checkout
    }

    /// Files agent-bundle's cache holds (0 when the folder was never created: no build ran).
    pub fn agent_bundle_cache_files(&self) -> usize {
        walkdir::WalkDir::new(&self.agent_bundle_cache)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .count()
    }

    /// A bundle's artifact, every file with its bytes.
    pub fn artifact(&self, bundle: &str) -> BTreeMap<String, Vec<u8>> {
        let dir = self.ws.join("bundles").join(bundle).join("artifact");
        assert!(dir.is_dir(), "{} has no artifact", dir.display());
        common::read_tree(&common::utf8(&dir))
    }
}

/// Makes the workspace at `ws` a repository as a user would commit it: a `.gitignore`, the
/// declarations `init --monorepo turbo` writes, agent-bundle's cache folder passed through to the
/// tasks unhashed, and one commit.
pub fn declare_and_commit(checkout: &Checkout) {
    std::fs::write(checkout.ws.join(".gitignore"), GITIGNORE).unwrap();
    let mut init = agent_bundle(&checkout.home);
    init.args(["init", "--monorepo", "turbo"]).arg(&checkout.ws);
    let written = run_bounded(init, SHORT, "init --monorepo turbo").expect_success("init --monorepo turbo");
    assert!(written.contains("wrote    turbo.json"), "init --monorepo turbo wrote no root turbo.json:\n{written}");
    let root = checkout.ws.join("turbo.json");
    let config: Value = serde_json::from_str(&std::fs::read_to_string(&root).unwrap()).unwrap();
    assert!(config["globalPassThroughEnv"].to_string().contains("AGENT_BUNDLE_CACHE_DIR"), "{config}");
    git(&checkout.ws, &checkout.home, &["init", "--quiet"]);
    git(&checkout.ws, &checkout.home, &["add", "--all"]);
    git(&checkout.ws, &checkout.home, &["commit", "--quiet", "--message", "hooks monorepo"]);
}

/// One task of a turbo run, from its run summary.
#[derive(Clone, Debug)]
pub struct TaskRun {
    pub hash: String,
    /// `HIT` or `MISS`.
    pub status: String,
    /// On a hit: `REMOTE` or `LOCAL`.
    pub source: Option<String>,
    pub exit_code: Option<i64>,
    /// Every file turbo hashed for the task, with its git object hash.
    pub inputs: BTreeMap<String, String>,
    /// The variables the hash covers, as `NAME=<sha256 of the value>`.
    pub env: Vec<String>,
}

/// A turbo run: its summary (`--summarize`, or `--dry=json`) and its tasks by package name.
pub struct TurboRun {
    pub summary: Value,
    pub tasks: BTreeMap<String, TaskRun>,
    pub output: String,
}

impl TurboRun {
    fn from_summary(summary: Value, output: String) -> TurboRun {
        let tasks = summary["tasks"]
            .as_array()
            .unwrap_or_else(|| panic!("a turbo summary without tasks:\n{summary:#}"))
            .iter()
            .map(|task| {
                let text = |key: &str| task[key].as_str().unwrap_or_default().to_string();
                let run = TaskRun {
                    hash: text("hash"),
                    status: task["cache"]["status"].as_str().unwrap_or_default().to_string(),
                    source: task["cache"]["source"].as_str().map(str::to_string),
                    exit_code: task["execution"]["exitCode"].as_i64(),
                    inputs: serde_json::from_value(task["inputs"].clone()).unwrap_or_default(),
                    env: serde_json::from_value(task["environmentVariables"]["configured"].clone()).unwrap_or_default(),
                };
                (text("package"), run)
            })
            .collect();
        TurboRun { summary, tasks, output }
    }

    pub fn task(&self, package: &str) -> &TaskRun {
        self.tasks.get(package).unwrap_or_else(|| panic!("turbo ran no task of {package}:\n{}", self.output))
    }
}

/// `turbo <args>` for `checkout` as a user's shell or CI would run it: a cleared environment but for `PATH`
/// (node, npm, git and the binary under test) and `HOME`, the remote cache (`TURBO_API`,
/// `TURBO_TOKEN`, `TURBO_TEAM`), telemetry and update checks off, the compiler id, and
/// agent-bundle's cache folder of this checkout; turbo's local cache in this checkout's state.
pub fn turbo(engines: &Path, checkout: &Checkout, server: &CacheServer, compiler: &str, args: &[&str]) -> Command {
    let mut command = Command::new(engines.join("node_modules/.bin/turbo"));
    command
        .args(args)
        .env_clear()
        .env("PATH", path_with_binary())
        .env("HOME", &checkout.home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("TURBO_API", server.api())
        .env("TURBO_TOKEN", TOKEN)
        .env("TURBO_TEAM", TEAM)
        .env("TURBO_TELEMETRY_DISABLED", "1")
        .env("DO_NOT_TRACK", "1")
        .env("TURBO_NO_UPDATE_NOTIFIER", "1")
        .env("AGENT_BUNDLE_COMPILER", compiler)
        .env("AGENT_BUNDLE_CACHE_DIR", &checkout.agent_bundle_cache)
        .current_dir(&checkout.ws)
        .arg("--cache-dir")
        .arg(&checkout.turbo_cache)
        .args(["--ui=stream", "--remote-cache-timeout=60"]);
    command
}

/// `turbo run build --summarize`: fails with turbo's output unless it succeeds; its run summary.
pub fn turbo_build(
    engines: &Path,
    checkout: &Checkout,
    server: &CacheServer,
    compiler: &str,
    limit: Duration,
) -> TurboRun {
    let runs = checkout.ws.join(".turbo/runs");
    let _ = std::fs::remove_dir_all(&runs);
    let command = turbo(engines, checkout, server, compiler, &["run", "build", "--summarize"]);
    let finished = run_bounded(command, limit, "turbo run build");
    let output = format!("--- stdout\n{}\n--- stderr\n{}", finished.stdout, finished.stderr);
    finished.expect_success("turbo run build");
    let summaries: Vec<PathBuf> = std::fs::read_dir(&runs)
        .unwrap_or_else(|e| panic!("turbo run --summarize wrote no {}: {e}\n{output}", runs.display()))
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(summaries.len(), 1, "one run summary expected: {summaries:?}\n{output}");
    let summary = serde_json::from_str(&std::fs::read_to_string(&summaries[0]).unwrap()).unwrap();
    TurboRun::from_summary(summary, output)
}

/// `turbo run build --dry=json`: what turbo would do (hashes, cache status), nothing run.
fn turbo_dry_run(engines: &Path, checkout: &Checkout, server: &CacheServer, compiler: &str) -> TurboRun {
    let command = turbo(engines, checkout, server, compiler, &["run", "build", "--dry=json"]);
    let finished = run_bounded(command, TURBO_RUN, "turbo run build --dry=json");
    let output = format!("--- stderr\n{}", finished.stderr);
    let stdout = finished.expect_success("turbo run build --dry=json");
    let summary =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("--dry=json printed no JSON ({e}):\n{stdout}"));
    TurboRun::from_summary(summary, output)
}

const BUNDLES: [&str; 3] = ["alpha", "beta", "gamma"];

fn package(bundle: &str) -> String {
    format!("@hooks/{bundle}")
}

/// The files whose hash differs between two runs of a task (or that only one of them hashed).
fn changed_inputs(before: &TaskRun, after: &TaskRun) -> Vec<String> {
    let mut names: Vec<&String> = before.inputs.keys().chain(after.inputs.keys()).collect();
    names.sort();
    names.dedup();
    names.into_iter().filter(|name| before.inputs.get(*name) != after.inputs.get(*name)).cloned().collect()
}

fn contains(tree: &BTreeMap<String, Vec<u8>>, text: &str) -> bool {
    tree.values().any(|bytes| bytes.windows(text.len()).any(|w| w == text.as_bytes()))
}

fn replace_in(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} lacks {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_second_clone_restores_every_bundle_from_the_remote_cache_and_misses_only_what_an_edit_changed() {
    let engines = engines();
    let temp = tempfile::tempdir().unwrap();
    let server = CacheServer::start(&engines, &temp.path().join("server"));

    // Clone A: the fixture copied, declared to turbo by `init --monorepo turbo`, committed.
    let a = Checkout::new(temp.path().join("a/ws"), &temp.path().join("a"));
    common::copy_tree(Path::new(WORKSPACE), &a.ws);
    declare_and_commit(&a);
    let compiler = compiler_id(&a.home);
    let first = turbo_build(&engines, &a, &server, &compiler, TURBO_RUN);
    assert_eq!(first.summary["envMode"], "strict", "turbo's default environment mode\n{}", first.output);
    assert_eq!(first.tasks.len(), 3, "{}", first.output);
    for bundle in BUNDLES {
        let task = first.task(&package(bundle));
        assert_eq!((task.status.as_str(), task.exit_code), ("MISS", Some(0)), "{bundle} ran\n{}", first.output);
        assert!(
            task.env.iter().any(|v| v.starts_with("AGENT_BUNDLE_COMPILER=")),
            "{bundle}'s hash covers the compiler: {:?}",
            task.env
        );
        assert!(!task.env.iter().any(|v| v.starts_with("AGENT_BUNDLE_CACHE_DIR")), "{:?}", task.env);
        assert!(
            task.inputs.contains_key("../../shared/policy.ts") && task.inputs.contains_key("../../tsconfig.base.json"),
            "{bundle} hashes the files it reads outside its package: {:?}",
            task.inputs.keys()
        );
        assert!(
            !task
                .inputs
                .keys()
                .any(|f| f.starts_with("artifact/") || f.starts_with(".turbo/") || f == ".artifact.lock"),
            "{bundle} hashes what a build leaves: {:?}",
            task.inputs.keys()
        );
        assert!(
            server.stored(&task.hash).is_some_and(|size| size > 0),
            "{bundle}'s artifact {} was not uploaded to {}\n{}",
            task.hash,
            server.storage.display(),
            server.log_text()
        );
    }
    assert_eq!(server.stored_count(), 3);
    assert!(a.agent_bundle_cache_files() > 0, "A's builds used the cache folder passed through to them");

    // The hash covers the compiler: another compiler id would build every bundle again.
    let other = turbo_dry_run(&engines, &a, &server, "0.0.0+0000000000000000");
    for bundle in BUNDLES {
        let task = other.task(&package(bundle));
        assert_ne!(task.hash, first.task(&package(bundle)).hash, "{bundle}: the compiler id is not in the hash");
        assert_eq!(task.status, "MISS", "{bundle}\n{}", other.output);
    }

    // Clone B: a git clone at another, deeper path, with empty local caches of both tools.
    let b = Checkout::clone_of(&a, temp.path().join("b/some/deeper/ws"), &temp.path().join("b"));
    // What CI would check first (with a home of its own: it builds each bundle to see what it reads).
    let mut check = agent_bundle(&temp.path().join("check-home"));
    check.args(["init", "--monorepo", "turbo", "--check"]).arg(&b.ws);
    run_bounded(check, SHORT, "init --monorepo turbo --check").expect_success("init --monorepo turbo --check in B");
    let restored = turbo_build(&engines, &b, &server, &compiler, TURBO_RUN);
    for bundle in BUNDLES {
        let task = restored.task(&package(bundle));
        assert_eq!(task.hash, first.task(&package(bundle)).hash, "{bundle}'s key depends on the checkout path");
        assert_eq!(
            (task.status.as_str(), task.source.as_deref()),
            ("HIT", Some("REMOTE")),
            "{bundle} is restored from the remote cache\n{}",
            restored.output
        );
        assert_eq!(b.artifact(bundle), a.artifact(bundle), "{bundle}'s artifact in B differs from A's");
    }
    assert_eq!(b.agent_bundle_cache_files(), 0, "B built something:\n{}", restored.output);
    assert!(!b.home.join(".cache").exists(), "B built something with its default cache:\n{}", restored.output);
    assert_eq!(server.stored_count(), 3, "a remote hit uploads nothing");

    // An edited handler misses its own bundle alone.
    let before = b.artifact("beta");
    replace_in(&b.ws.join("bundles/beta/src/hooks/guard.ts"), "`beta: ", "`beta, edited: ");
    let edited = turbo_build(&engines, &b, &server, &compiler, TURBO_RUN);
    for bundle in BUNDLES {
        let (was, task) = (restored.task(&package(bundle)), edited.task(&package(bundle)));
        if bundle == "beta" {
            assert_eq!((task.status.as_str(), task.exit_code), ("MISS", Some(0)), "beta ran\n{}", edited.output);
            assert_eq!(changed_inputs(was, task), ["src/hooks/guard.ts"]);
            assert!(server.stored(&task.hash).is_some(), "beta's new artifact was uploaded");
        } else {
            assert_eq!(task.status, "HIT", "{bundle} did not change\n{}", edited.output);
            assert_eq!(task.hash, was.hash);
            assert_eq!(b.artifact(bundle), a.artifact(bundle));
        }
    }
    let beta = b.artifact("beta");
    assert!(contains(&beta, "beta, edited: ") && !contains(&before, "beta, edited: "), "beta's artifact has the edit");
    assert!(b.agent_bundle_cache_files() > 0, "beta was built in B");

    // A module outside the packages, declared as `$TURBO_ROOT$/shared/policy.ts`: all three miss.
    replace_in(&b.ws.join("shared/policy.ts"), "refused by the shared policy", "refused by the edited shared policy");
    let shared = turbo_build(&engines, &b, &server, &compiler, TURBO_RUN);
    for bundle in BUNDLES {
        let (was, task) = (edited.task(&package(bundle)), shared.task(&package(bundle)));
        assert_eq!((task.status.as_str(), task.exit_code), ("MISS", Some(0)), "{bundle} ran\n{}", shared.output);
        assert_eq!(changed_inputs(was, task), ["../../shared/policy.ts"], "{bundle}");
        assert!(contains(&b.artifact(bundle), "refused by the edited shared policy"), "{bundle}'s artifact");
    }
    assert_eq!(server.stored_count(), 3 + 1 + 3, "every miss uploaded its artifact");
}
