//! Builds cached by Nx (issue 28, D15), with the real nx 24.0.7 (pinned in testdata/engines) and its
//! local cache: the engines workspace declared by `init --monorepo nx` builds its three bundles; with
//! every artifact deleted, a second run restores all three from Nx's cache byte for byte without
//! building; an edited handler misses only its own project; an edited module outside every project
//! (declared as `{workspaceRoot}/…`) misses them all; and a build that starts reading a file outside
//! its project that its project.json does not declare fails its task rather than be cached.
//!
//! The settings: a git checkout whose `.gitignore` keeps out what builds leave (Nx hashes a project's
//! files less the ignored ones), Nx's cache in the checkout (`.nx/`), no daemon, no Nx Cloud, no
//! terminal UI; the workspace's `node_modules` is the pinned engines' (Nx runs from the workspace's
//! own installation).

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::engines::{SHORT, agent_bundle, engines, git, path_with_binary, run_bounded};

const WORKSPACE: &str = "testdata/engines-workspace";
const BUNDLES: [&str; 3] = ["alpha", "beta", "gamma"];
/// A hang guard for one `nx run-many` of the three-bundle workspace.
const NX_RUN: Duration = Duration::from_secs(300);

struct Checkout {
    ws: PathBuf,
    home: PathBuf,
    /// agent-bundle's cache for the tasks: untouched by a run that built nothing.
    cache: PathBuf,
}

impl Checkout {
    fn cache_files(&self) -> usize {
        walkdir::WalkDir::new(&self.cache)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .count()
    }

    fn artifact(&self, bundle: &str) -> BTreeMap<String, Vec<u8>> {
        common::read_tree(&common::utf8(&self.ws.join("bundles").join(bundle).join("artifact")))
    }

    fn edit(&self, file: &str, from: &str, to: &str) {
        let path = self.ws.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} lacks {from:?}");
        std::fs::write(&path, text.replace(from, to)).unwrap();
    }
}

/// One `nx run-many -t build`: per project, whether Nx restored it from its cache, and what it printed.
struct NxRun {
    cached: BTreeMap<String, bool>,
    code: Option<i32>,
    output: String,
}

fn nx_build(engines: &Path, checkout: &Checkout) -> NxRun {
    let mut command = Command::new(engines.join("node_modules/.bin/nx"));
    command
        .env_clear()
        .env("PATH", path_with_binary())
        .env("HOME", &checkout.home)
        .env("AGENT_BUNDLE_CACHE_DIR", &checkout.cache)
        .env("NX_DAEMON", "false")
        .env("NX_NO_CLOUD", "true")
        .env("NX_TUI", "false")
        .env("NX_SKIP_NX_CACHE", "")
        .env("NX_CACHE_DIRECTORY", checkout.ws.join(".nx/cache"))
        .env("NX_VERBOSE_LOGGING", "false")
        .env("CI", "true")
        .env("NO_COLOR", "1")
        .env("FORCE_COLOR", "0")
        .args(["run-many", "-t", "build", "--outputStyle=static", "--parallel=1"])
        .current_dir(&checkout.ws);
    let finished = run_bounded(command, NX_RUN, "nx run-many -t build");
    let output = without_colours(&format!("{}\n{}", finished.stdout, finished.stderr));
    // Nx names each task it runs (`> nx run @hooks/alpha:build`), marked `[local cache]` when restored.
    let cached = output
        .lines()
        .filter_map(|line| line.trim().strip_prefix("> nx run @hooks/"))
        .filter_map(|rest| {
            let (project, after) = rest.split_once(":build")?;
            Some((project.to_string(), after.contains("[local cache]")))
        })
        .collect();
    NxRun { cached, code: finished.code, output }
}

/// Nx colours its report whatever the terminal: the text without ANSI escape sequences.
fn without_colours(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // ESC [ parameters final-byte
            if chars.next() == Some('[') {
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

fn expect(run: &NxRun, cached: &[(&str, bool)]) {
    assert_eq!(run.code, Some(0), "nx failed:\n{}", run.output);
    let want: BTreeMap<String, bool> = cached.iter().map(|(p, c)| (p.to_string(), *c)).collect();
    assert_eq!(run.cached, want, "which projects Nx restored from its cache:\n{}", run.output);
}

#[test]
fn nx_restores_unchanged_bundles_and_rebuilds_exactly_the_changed_ones() {
    let engines = engines();
    let temp = tempfile::tempdir().unwrap();
    let checkout = Checkout {
        ws: temp.path().join("ws"),
        home: temp.path().join("home"),
        cache: temp.path().join("agent-bundle-cache"),
    };
    std::fs::create_dir_all(&checkout.home).unwrap();
    common::copy_tree(Path::new(WORKSPACE), &checkout.ws);
    std::os::unix::fs::symlink(engines.join("node_modules"), checkout.ws.join("node_modules")).unwrap();
    std::fs::write(checkout.ws.join(".gitignore"), "node_modules\n.nx/\nartifact/\n.artifact.lock\n").unwrap();
    let mut init = agent_bundle(&checkout.home);
    init.args(["init", "--monorepo", "nx"]).arg(&checkout.ws);
    let written = run_bounded(init, SHORT, "init --monorepo nx").expect_success("init --monorepo nx");
    assert!(written.contains("wrote    nx.json"), "{written}");
    git(&checkout.ws, &checkout.home, &["init", "-q"]);
    git(&checkout.ws, &checkout.home, &["add", "-A"]);
    git(&checkout.ws, &checkout.home, &["commit", "-q", "-m", "the engines workspace"]);

    // Cold: every project builds.
    let cold = nx_build(&engines, &checkout);
    expect(&cold, &[("alpha", false), ("beta", false), ("gamma", false)]);
    let built: Vec<BTreeMap<String, Vec<u8>>> = BUNDLES.iter().map(|b| checkout.artifact(b)).collect();
    assert!(built.iter().all(|tree| tree.contains_key("agent-bundle.manifest.json")));

    // Every artifact gone: Nx restores all three from its cache, byte for byte, and builds nothing.
    for bundle in BUNDLES {
        std::fs::remove_dir_all(checkout.ws.join("bundles").join(bundle).join("artifact")).unwrap();
    }
    let files = checkout.cache_files();
    let restored = nx_build(&engines, &checkout);
    expect(&restored, &[("alpha", true), ("beta", true), ("gamma", true)]);
    for (bundle, before) in BUNDLES.iter().zip(&built) {
        assert_eq!(&checkout.artifact(bundle), before, "{bundle}: Nx restored other bytes");
    }
    assert_eq!(checkout.cache_files(), files, "a run restored from Nx's cache built something:\n{}", restored.output);

    // One handler edited: only its project builds, and its artifact has the edit.
    checkout.edit("bundles/beta/src/hooks/guard.ts", "`beta: ", "`beta, edited: ");
    let edited = nx_build(&engines, &checkout);
    expect(&edited, &[("alpha", true), ("beta", false), ("gamma", true)]);
    let beta = checkout.artifact("beta");
    assert!(beta.values().any(|bytes| String::from_utf8_lossy(bytes).contains("beta, edited: ")));

    // The shared module outside every project, declared from the workspace root: all three build.
    checkout.edit("shared/policy.ts", "refused by the shared policy", "refused by the edited shared policy");
    let shared = nx_build(&engines, &checkout);
    expect(&shared, &[("alpha", false), ("beta", false), ("gamma", false)]);

    // The compiler is a runtime input of each target.
    let mut show = Command::new(engines.join("node_modules/.bin/nx"));
    show.env_clear()
        .env("PATH", path_with_binary())
        .env("HOME", &checkout.home)
        .env("NX_DAEMON", "false")
        .env("NX_NO_CLOUD", "true")
        .args(["show", "project", "@hooks/alpha", "--json"])
        .current_dir(&checkout.ws);
    let project: serde_json::Value =
        serde_json::from_str(&run_bounded(show, SHORT, "nx show project").expect_success("nx show project")).unwrap();
    assert!(
        project["targets"]["build"]["inputs"].to_string().contains("inspect --compiler-id"),
        "{}",
        project["targets"]["build"]
    );

    // gamma starts importing a module outside its project that project.json does not declare: its
    // task fails instead of being cached under a key that misses it.
    std::fs::write(checkout.ws.join("shared/extra.ts"), "export const extra = 'more';\n").unwrap();
    std::fs::write(
        checkout.ws.join("bundles/gamma/src/hooks/guard.ts"),
        "import { extra } from '@shared/extra';\nexport default () => ({ additionalContext: extra });\n",
    )
    .unwrap();
    let undeclared = nx_build(&engines, &checkout);
    assert_ne!(undeclared.code, Some(0), "{}", undeclared.output);
    assert!(
        undeclared.output.contains("`shared/extra.ts`") && undeclared.output.contains("init --monorepo nx"),
        "{}",
        undeclared.output
    );
    // Declared, it builds and is cached.
    let mut init = agent_bundle(&checkout.home);
    init.args(["init", "--monorepo", "nx"]).arg(&checkout.ws);
    run_bounded(init, SHORT, "init --monorepo nx").expect_success("init --monorepo nx again");
    let declared = nx_build(&engines, &checkout);
    expect(&declared, &[("alpha", true), ("beta", true), ("gamma", false)]);
}
