//! The cold-build benchmark against peer bundlers (issue 24).
//!
//!   cargo bench --bench cold -- [BUNDLES] [HOOKS] [RUNS]      (default 200 × 10, 3 runs)
//!
//! Generates the monorepo of `benches/support` (BUNDLES bundles × HOOKS TypeScript handlers sharing a
//! module per bundle) on tmpfs where there is one, and then times, in RUNS interleaved rounds (each
//! round runs every contender once, so a slow moment of the machine falls on all of them alike):
//!
//! - ours: `cargo agent-bundle build --recursive` through the command-line binary built in the
//!   bench's profile, with an empty cache folder and no artifacts each time;
//! - each peer (`benches/peers`, pinned with its lockfile and installed by this benchmark: esbuild,
//!   rolldown's npm package, Bun) bundling the same handlers from one process of its own, once per
//!   bundle (all of a bundle's handlers the entry points of one build) and once per handler, with
//!   options as close to ours as its API allows (node platform, ESM, node18, source map files, no
//!   minifying, output outside the bundles).
//!
//! Each figure is the median of the rounds: the wall time of the whole process (process start and
//! loading the bundler included, as they are for our command line), the CPU time of its process
//! tree, its peak resident memory, and for a peer the time its driver measured itself around the
//! builds alone. Ratios are `peer wall ms / our wall ms` (so ≥ 1.0 means we are faster), taken on the
//! whole-process wall times: that is what comparing one command with another means. The targets are
//! against the fastest peer's per-bundle figure (per-handler rows are shown, not targeted).
//!
//! The same is done for a single plugin of 1 × 10 (what most users build). Then, on the large repo:
//! the no-op rebuild through the command line against the floor of stat-ing every input, and one
//! handler edited, counting the files the rebuild wrote. Every target is printed MET or MISSED.
//!
//! Asserts nothing about speed; asserts only that every contender produced an output (and for a
//! peer, a source map) for every handler, so that one that silently did nothing cannot look fast.
//!
//! rolldown's npm package is pinned at 1.2.5, the version of the crate agent-bundle embeds. Bun's
//! package installs its binary with a postinstall script, which `npm ci --ignore-scripts` skips: the
//! binary is run from its platform package (`@oven/bun-linux-x64`, which needs AVX2) instead.

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{Measured, bundle_roots, generate, measure, median, replace, scratch_dir, stat_floor};

#[allow(dead_code, reason = "shared with tests/it, which uses all of it; this uses a part")]
#[path = "../tests/it/common/mod.rs"]
mod common;
mod support;

/// The command line under test, built by cargo for this bench in the bench's own profile.
const CLI: &str = env!("CARGO_BIN_EXE_cargo-agent-bundle");

/// The single-plugin case, run whatever the arguments.
const SINGLE: (usize, usize) = (1, 10);

fn main() {
    let args = Args::parse();
    let peers = installed_peers();
    println!(
        "agent-bundle cold-build benchmark: ours (the CLI) against {}; median of {} interleaved runs",
        PEERS.map(Peer::name).join(", "),
        args.runs
    );
    let mut targets = Vec::new();
    let large = Workspace::generate(args.bundles, args.hooks);
    let figures = summarise(&cold_rounds(&large, &peers, args.runs));
    print_cold_table(&large, &figures);
    targets.push(cold_target(&large, &figures, 1.0, "faster than every peer"));
    if (args.bundles, args.hooks) != SINGLE {
        let single = Workspace::generate(SINGLE.0, SINGLE.1);
        let figures = summarise(&cold_rounds(&single, &peers, args.runs));
        print_cold_table(&single, &figures);
        targets.push(cold_target(&single, &figures, 1.0 / 1.2, "within 1.2x of the fastest peer"));
    }
    targets.push(no_op_target(&large, args.runs));
    targets.push(touch_one_target(&large));
    println!("\ntargets");
    for target in &targets {
        println!("  {target}");
    }
}

/// `[BUNDLES] [HOOKS] [RUNS]`; cargo's own `--bench` flag is skipped.
struct Args {
    bundles: usize,
    hooks: usize,
    runs: usize,
}

impl Args {
    fn parse() -> Args {
        let numbers: Vec<usize> = std::env::args()
            .skip(1)
            .filter(|a| !a.starts_with("--"))
            .map(|a| a.parse().unwrap_or_else(|_| panic!("usage: cold [BUNDLES] [HOOKS] [RUNS]; `{a}` is no number")))
            .collect();
        let at = |i: usize, default: usize| numbers.get(i).copied().unwrap_or(default);
        let args = Args { bundles: at(0, 200), hooks: at(1, 10), runs: at(2, 3) };
        assert!(args.bundles > 0 && args.hooks > 0 && args.runs > 0, "bundles, hooks and runs must be at least 1");
        assert!(args.bundles <= 1000 && args.hooks <= 100, "the generator names at most 1000 bundles of 100 hooks");
        args
    }
}

/// The peer folder, its pinned packages installed from the lockfile (once; no scripts run).
fn installed_peers() -> PathBuf {
    let peers = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/peers");
    common::npm_installed(camino::Utf8Path::from_path(&peers).expect("a UTF-8 path"));
    peers
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Peer {
    Esbuild,
    Rolldown,
    Bun,
}

const PEERS: [Peer; 3] = [Peer::Esbuild, Peer::Rolldown, Peer::Bun];

impl Peer {
    fn name(self) -> &'static str {
        match self {
            Peer::Esbuild => "esbuild",
            Peer::Rolldown => "rolldown",
            Peer::Bun => "bun",
        }
    }

    /// The process that runs this peer's driver (`benches/peers/<name>.mjs`): node for the two
    /// bundlers with a node API, Bun's own binary for Bun.
    fn driver(self, peers: &Path) -> Command {
        let runner = match self {
            Peer::Esbuild | Peer::Rolldown => PathBuf::from("node"),
            Peer::Bun => bun_binary(peers),
        };
        let mut command = Command::new(runner);
        command.arg(peers.join(format!("{}.mjs", self.name())));
        command
    }
}

/// Bun's binary in its platform package (the `bun` package's own launcher is only put in place by
/// the postinstall script the install skips).
fn bun_binary(peers: &Path) -> PathBuf {
    let platform = match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => "bun-linux-x64",
        ("linux", "aarch64") => "bun-linux-aarch64",
        (os, arch) => panic!("no Bun platform package is pinned for {os} {arch}"),
    };
    let binary = peers.join("node_modules/@oven").join(platform).join("bin/bun");
    assert!(binary.is_file(), "{} is missing: the install of benches/peers skipped it", binary.display());
    binary
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    /// One build per bundle, all of its handlers as entry points.
    PerBundle,
    /// One build per handler.
    PerHandler,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::PerBundle => "per-bundle",
            Mode::PerHandler => "per-handler",
        }
    }
}

/// One of the things a round runs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Contender {
    Ours,
    Peer(Peer, Mode),
}

/// Ours first, then every peer in both modes.
fn contenders() -> Vec<Contender> {
    let peers =
        PEERS.iter().flat_map(|&peer| [Mode::PerBundle, Mode::PerHandler].map(|mode| Contender::Peer(peer, mode)));
    std::iter::once(Contender::Ours).chain(peers).collect()
}

impl Contender {
    fn label(self) -> String {
        match self {
            Contender::Ours => "agent-bundle CLI".to_string(),
            Contender::Peer(peer, mode) => format!("{} {}", peer.name(), mode.name()),
        }
    }
}

/// A generated monorepo and the scratch folders around it (all removed when dropped).
struct Workspace {
    scratch: tempfile::TempDir,
    bundles: usize,
    hooks: usize,
    roots: Vec<PathBuf>,
}

impl Workspace {
    fn generate(bundles: usize, hooks: usize) -> Workspace {
        let scratch = scratch_dir("agent-bundle-cold-");
        let repo = scratch.path().join("repo");
        generate(&repo, bundles, hooks);
        Workspace { roots: bundle_roots(&repo), scratch, bundles, hooks }
    }

    fn repo(&self) -> PathBuf {
        self.scratch.path().join("repo")
    }

    /// Our cache folder: outside the repo, emptied before each cold build.
    fn cache(&self) -> PathBuf {
        self.scratch.path().join("cache")
    }

    /// Where a peer writes its outputs: outside the repo, emptied before each run.
    fn peer_output(&self, peer: Peer, mode: Mode) -> PathBuf {
        self.scratch.path().join("out").join(format!("{}-{}", peer.name(), mode.name()))
    }

    fn handlers(&self) -> usize {
        self.bundles * self.hooks
    }

    fn title(&self) -> String {
        format!("{} x {} ({} handlers)", self.bundles, self.hooks, self.handlers())
    }

    /// Removes every artifact folder and the cache, for a cold build.
    fn clear_ours(&self) {
        for root in &self.roots {
            let _ = std::fs::remove_dir_all(root.join("artifact"));
        }
        let _ = std::fs::remove_dir_all(self.cache());
    }
}

/// Our command line building every bundle of the repo (`extra` arguments appended).
fn ours(workspace: &Workspace, extra: &[&str]) -> Command {
    let mut command = Command::new(CLI);
    command.args(["agent-bundle", "build", "--recursive", "--root"]).arg(workspace.repo()).args(extra);
    // Nothing of the caller's configuration (a fault injected, another cache) may reach the build.
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("AGENT_BUNDLE_") {
            command.env_remove(name);
        }
    }
    command.env("AGENT_BUNDLE_CACHE_DIR", workspace.cache());
    command
}

/// One run of one contender.
struct Sample {
    measured: Measured,
    /// What a peer's driver measured itself around its builds alone.
    inner_ms: Option<f64>,
}

/// Runs every contender `runs` times, interleaved; their samples in [`contenders`] order.
fn cold_rounds(workspace: &Workspace, peers: &Path, runs: usize) -> Vec<(Contender, Vec<Sample>)> {
    let mut samples: Vec<(Contender, Vec<Sample>)> = contenders().into_iter().map(|c| (c, Vec::new())).collect();
    for _ in 0..runs {
        for (contender, taken) in &mut samples {
            taken.push(match *contender {
                Contender::Ours => cold_build(workspace),
                Contender::Peer(peer, mode) => peer_run(workspace, peers, peer, mode),
            });
        }
    }
    samples
}

/// Our cold build: no artifacts, an empty cache. Checks that every bundle was built.
fn cold_build(workspace: &Workspace) -> Sample {
    workspace.clear_ours();
    let measured = measure(&mut ours(workspace, &[]));
    let summary = format!("Built {0} of {0} bundles; 0 failed", workspace.bundles);
    assert!(measured.stdout.contains(&summary), "the build did not say `{summary}`:\n{}", measured.stdout);
    for root in &workspace.roots {
        let manifest = root.join("artifact").join(agent_bundle::artifact::MANIFEST_PATH);
        assert!(manifest.is_file(), "the build left no {}", manifest.display());
    }
    Sample { measured, inner_ms: None }
}

/// One run of a peer's driver over every bundle. Checks that it bundled every handler, with a map.
fn peer_run(workspace: &Workspace, peers: &Path, peer: Peer, mode: Mode) -> Sample {
    let output = workspace.peer_output(peer, mode);
    let _ = std::fs::remove_dir_all(&output);
    let mut command = peer.driver(peers);
    command.arg(mode.name()).arg(&output).args(&workspace.roots);
    let measured = measure(&mut command);
    let report = DriverReport::parse(&measured.stdout);
    let label = Contender::Peer(peer, mode).label();
    assert_eq!(report.entries, workspace.handlers(), "{label} bundled another number of handlers");
    let (bundles, maps) = handler_outputs(&output);
    assert_eq!(bundles, workspace.handlers(), "{label} wrote another number of handler bundles");
    assert_eq!(maps, workspace.handlers(), "{label} wrote another number of source maps");
    std::fs::remove_dir_all(&output).unwrap();
    Sample { measured, inner_ms: Some(report.ms) }
}

/// The line a driver prints (`benches/peers/jobs.mjs`).
#[derive(serde::Deserialize)]
struct DriverReport {
    entries: usize,
    ms: f64,
}

impl DriverReport {
    fn parse(stdout: &str) -> DriverReport {
        let line = stdout.lines().rev().find(|l| l.starts_with('{')).unwrap_or_else(|| panic!("no report in {stdout}"));
        serde_json::from_str(line).unwrap_or_else(|e| panic!("`{line}` is no driver report: {e}"))
    }
}

/// The handler bundles (`hook-NN.js`) and their maps (`hook-NN.js.map`) under a peer's output folder;
/// shared chunks a peer split off are not counted.
fn handler_outputs(output: &Path) -> (usize, usize) {
    let (mut bundles, mut maps) = (0, 0);
    for entry in walkdir::WalkDir::new(output).into_iter().filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy();
        if !entry.file_type().is_file() || !name.starts_with("hook-") {
            continue;
        }
        if name.ends_with(".js") {
            bundles += 1;
        } else if name.ends_with(".js.map") {
            maps += 1;
        }
    }
    (bundles, maps)
}

/// The medians of one contender's runs.
struct Figures {
    contender: Contender,
    wall_ms: f64,
    cpu_ms: f64,
    peak_rss_mib: f64,
    inner_ms: Option<f64>,
}

impl Figures {
    fn of(contender: Contender, samples: &[Sample]) -> Figures {
        let of = |f: &dyn Fn(&Sample) -> f64| median(&samples.iter().map(f).collect::<Vec<_>>());
        Figures {
            contender,
            wall_ms: of(&|s| s.measured.wall_ms),
            cpu_ms: of(&|s| s.measured.cpu_ms),
            peak_rss_mib: of(&|s| s.measured.peak_rss_kib as f64 / 1024.0),
            inner_ms: samples.iter().all(|s| s.inner_ms.is_some()).then(|| of(&|s| s.inner_ms.unwrap_or_default())),
        }
    }
}

fn summarise(samples: &[(Contender, Vec<Sample>)]) -> Vec<Figures> {
    samples.iter().map(|(contender, taken)| Figures::of(*contender, taken)).collect()
}

fn print_cold_table(workspace: &Workspace, figures: &[Figures]) {
    println!("\ncold build, {} in {}", workspace.title(), workspace.scratch.path().display());
    println!(
        "{:<26} {:>10} {:>14} {:>10} {:>14} {:>10}",
        "contender", "wall ms", "in-process ms", "CPU ms", "peak RSS MiB", "peer/ours"
    );
    let our_ms = ours_figures(figures).wall_ms;
    for row in figures {
        let inner = row.inner_ms.map_or("-".to_string(), |ms| format!("{ms:.1}"));
        let ratio = match row.contender {
            Contender::Ours => "-".to_string(),
            Contender::Peer(..) => format!("{:.2}", row.wall_ms / our_ms),
        };
        println!(
            "{:<26} {:>10.1} {inner:>14} {:>10.1} {:>14.1} {ratio:>10}",
            row.contender.label(),
            row.wall_ms,
            row.cpu_ms,
            row.peak_rss_mib
        );
    }
}

fn ours_figures(figures: &[Figures]) -> &Figures {
    figures.iter().find(|f| f.contender == Contender::Ours).expect("ours is always run")
}

/// The fastest peer building once per bundle (by whole-process wall time).
fn fastest_peer(figures: &[Figures]) -> &Figures {
    figures
        .iter()
        .filter(|f| matches!(f.contender, Contender::Peer(_, Mode::PerBundle)))
        .min_by(|a, b| a.wall_ms.total_cmp(&b.wall_ms))
        .expect("peers are always run")
}

/// The cold target of one case: `fastest peer ms / our ms` at least `at_least`.
fn cold_target(workspace: &Workspace, figures: &[Figures], at_least: f64, goal: &str) -> String {
    let fastest = fastest_peer(figures);
    let ratio = fastest.wall_ms / ours_figures(figures).wall_ms;
    format!(
        "cold {}: {goal}: {} / ours = {ratio:.2} (target >= {at_least:.2}) {}",
        workspace.title(),
        fastest.contender.label(),
        verdict(ratio >= at_least)
    )
}

/// The no-op rebuild through the command line against the stat floor (stat-ing every input once,
/// in this process), interleaved over `runs`. The time the binary takes to start and exit
/// (`--version`) is shown beside it, as the part of the figure no build work can remove.
fn no_op_target(workspace: &Workspace, runs: usize) -> String {
    workspace.clear_ours();
    measure(&mut ours(workspace, &[]));
    // The first no-op after a build that wrote is the per-bundle check, and keeps the no-op record
    // (once what the build wrote is older than the file clock's granularity); the rest replay it.
    std::thread::sleep(std::time::Duration::from_millis(50));
    let first = measure(&mut ours(workspace, &[]));
    let (mut rebuilds, mut floors, mut starts) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        floors.push(stat_floor(&workspace.repo()));
        starts.push(measure(Command::new(CLI).args(["agent-bundle", "--version"])).wall_ms);
        rebuilds.push(measure(&mut ours(workspace, &[])));
    }
    let (floor, start) = (median(&floors), median(&starts));
    let wall = median(&rebuilds.iter().map(|m| m.wall_ms).collect::<Vec<_>>());
    let rss = median(&rebuilds.iter().map(|m| m.peak_rss_kib as f64 / 1024.0).collect::<Vec<_>>());
    let ratio = wall / floor;
    println!(
        "\nno-op rebuild, {}: {wall:.1} ms wall, {rss:.1} MiB peak RSS; stat floor {floor:.2} ms; \
         the CLI's start and exit alone (--version) {start:.1} ms; the first no-op after the build \
         (the per-bundle check, keeping the record) {:.1} ms",
        workspace.title(),
        first.wall_ms
    );
    format!("no-op {}: CLI / stat floor = {ratio:.2} (target <= 2.00) {}", workspace.title(), verdict(ratio <= 2.0))
}

/// One handler edited, rebuilt through the command line: how many files the rebuild wrote.
fn touch_one_target(workspace: &Workspace) -> String {
    replace(&workspace.roots[0].join("src/hooks/hook-00.ts"), "refused it", "refused this");
    let measured = measure(&mut ours(workspace, &["--json"]));
    let document: serde_json::Value = serde_json::from_str(&measured.stdout).expect("--json prints one document");
    let written: usize = document["bundles"]
        .as_array()
        .expect("one summary per bundle")
        .iter()
        .map(|bundle| bundle["written"].as_array().map_or(0, Vec::len))
        .sum();
    println!(
        "one handler edited, {}: {written} files written, {:.1} ms wall, {:.1} MiB peak RSS",
        workspace.title(),
        measured.wall_ms,
        measured.peak_rss_kib as f64 / 1024.0
    );
    format!("touch-one {}: {written} files written (target <= 3) {}", workspace.title(), verdict(written <= 3))
}

fn verdict(met: bool) -> &'static str {
    if met { "MET" } else { "MISSED" }
}
