//! Running the pinned monorepo engines (testdata/engines: turbo, turborepo-remote-cache, nx) and the
//! binary under test as a workspace's tasks run it, bounded in time, for tests/it/turbo_remote_cache.rs,
//! tests/it/nx_cache.rs and benches/remote_cache.rs.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use camino::Utf8Path;

/// The pinned engines (turbo, turborepo-remote-cache, nx), installed from their lockfile.
pub const ENGINES: &str = "testdata/engines";
/// A hang guard for one short command (git, init, inspect); never a performance budget.
pub const SHORT: Duration = Duration::from_secs(120);

/// The pinned engines, installed (once, under a lock), as an absolute path.
pub fn engines() -> PathBuf {
    super::require_node();
    super::npm_installed(Utf8Path::new(ENGINES));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(ENGINES);
    for needed in ["node_modules/.bin/turbo", "node_modules/turborepo-remote-cache/dist/cli.js", "node_modules/.bin/nx"]
    {
        assert!(dir.join(needed).is_file(), "`npm ci` in {ENGINES} left no {needed}: check its package-lock.json");
    }
    dir
}

/// A finished child process.
pub struct Finished {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Finished {
    /// Its stdout, after failing with everything it printed unless it exited 0.
    pub fn expect_success(self, what: &str) -> String {
        assert_eq!(
            self.code,
            Some(0),
            "{what} failed (exit {:?}):\n--- stdout\n{}\n--- stderr\n{}",
            self.code,
            self.stdout,
            self.stderr
        );
        self.stdout
    }
}

/// Runs `command` in a process group of its own, its output in files (so a grandchild holding a
/// pipe open cannot hang the wait), and kills the whole group and fails, with what it printed,
/// when it runs longer than `limit` (a hang guard).
pub fn run_bounded(mut command: Command, limit: Duration, what: &str) -> Finished {
    let out_file = tempfile::NamedTempFile::new().unwrap();
    let err_file = tempfile::NamedTempFile::new().unwrap();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(out_file.reopen().unwrap())
        .stderr(err_file.reopen().unwrap())
        .process_group(0)
        .spawn()
        .unwrap_or_else(|e| panic!("{what} cannot start ({:?}): {e}", command.get_program()));
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            timed_out = true;
            // SAFETY: kill(2) on the process group this function created.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let finished = Finished {
        code: status.code(),
        stdout: std::fs::read_to_string(out_file.path()).unwrap_or_default(),
        stderr: std::fs::read_to_string(err_file.path()).unwrap_or_default(),
    };
    assert!(
        !timed_out,
        "{what} did not finish within {} s and was killed:\n--- stdout\n{}\n--- stderr\n{}",
        limit.as_secs(),
        finished.stdout,
        finished.stderr
    );
    finished
}

/// `PATH` with the folder of the binary under test first (the bundles' `build` script runs
/// `cargo-agent-bundle`), then the test's own (node, npm, git).
pub fn path_with_binary() -> std::ffi::OsString {
    let binary = Path::new(env!("CARGO_BIN_EXE_cargo-agent-bundle"));
    let mut folders = vec![binary.parent().unwrap().to_path_buf()];
    folders.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
    std::env::join_paths(folders).unwrap()
}

/// The binary under test, as `cargo agent-bundle` runs it, in a cleared environment with `home`.
pub fn agent_bundle(home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cargo-agent-bundle"));
    command.env_clear().env("PATH", path_with_binary()).env("HOME", home).arg("agent-bundle");
    command
}

/// `inspect --compiler-id`: what turbo hashes for the compiler, through `AGENT_BUNDLE_COMPILER`.
pub fn compiler_id(home: &Path) -> String {
    let mut command = agent_bundle(home);
    command.args(["inspect", "--compiler-id"]);
    let id = run_bounded(command, SHORT, "inspect --compiler-id").expect_success("inspect --compiler-id");
    let id = id.trim().to_string();
    assert!(!id.is_empty() && !id.contains('\n'), "inspect --compiler-id printed {id:?}");
    id
}

/// git in `dir`, with no system or user configuration of this machine.
pub fn git(dir: &Path, home: &Path, args: &[&str]) -> String {
    let mut command = Command::new("git");
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .args(["-c", "user.name=agent-bundle tests", "-c", "user.email=tests@agent-bundle.invalid"])
        .args(["-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir);
    let what = format!("git {}", args.join(" "));
    run_bounded(command, SHORT, &what).expect_success(&what)
}
