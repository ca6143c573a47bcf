//! The no-op record of `build --recursive` (`src/driver/noop_record.rs`) is never wrong, as a
//! property: a generated tree of bundles takes random steps (a handler edited, touched or
//! chmod-ed, a bundle added, nested, hidden or removed, a licence or a `package.json` appearing, an
//! artifact file deleted or a foreign one dropped in, a config replaced by a link, or nothing at
//! all), and after every step a `build --recursive`:
//!
//! - replays the record exactly when the step changed nothing (any change, even a touch, sends it
//!   down the per-bundle check);
//! - leaves every artifact byte for byte as a clean `--no-cache` build of the same sources does;
//! - and, once the tree has settled, replays what the per-bundle check prints for the same tree,
//!   byte for byte, in text, `--json` and `--explain` alike.
//!
//! Which path a run took is read from `AGENT_BUNDLE_TRACE=noop-record` on stderr.
//!
//! `cargo test` runs a few sequences from fixed seeds; `AGENT_BUNDLE_PROPERTY_SECONDS=<n>` runs
//! fresh seeds for that long, and `AGENT_BUNDLE_PROPERTY_SEED=<n>` replays one sequence.

use crate::common;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::process::Output;
use std::time::Duration;

use camino::{Utf8Path, Utf8PathBuf};
use common::{Random, cli, sandbox_dir, write_file};

/// Longer than the file clock's granularity (20 ms): what a step wrote has settled by the time the
/// build reads it, as it would between a developer's save and their next build.
const SETTLE: Duration = Duration::from_millis(40);

struct Tree {
    repo: Utf8PathBuf,
    cache: Utf8PathBuf,
    /// The bundle folders, relative to `repo`.
    bundles: Vec<String>,
    next: usize,
}

fn write_bundle(root: &Utf8Path, name: &str, word: &str) {
    write_file(root.as_std_path(), "src/lib/shared.ts", &format!("export const word = '{word}';\n"));
    write_file(
        root.as_std_path(),
        "src/hooks/guard.ts",
        "import { word } from '../lib/shared';\n\nexport default (event: { toolInput: { command?: string } }) =>\n  (event.toolInput.command ?? '').includes(word) ? { outcome: 'deny' as const, reason: word } : undefined;\n",
    );
    write_file(
        root.as_std_path(),
        "src/hooks/start.ts",
        &format!("export default () => ({{ context: 'started {word}' }});\n"),
    );
    write_file(
        root.as_std_path(),
        "agent-bundle.config.ts",
        &format!(
            "export default {{\n  hooks: {{\n    beforeTool: [{{ handler: './src/hooks/guard.ts', tools: ['shell'] }}],\n    sessionStart: [{{ handler: './src/hooks/start.ts' }}],\n  }},\n  plugin: {{ name: '{name}', description: 'A generated bundle.', version: '1.0.0', author: 'tests' }},\n  targets: ['claude', 'codex'],\n}};\n"
        ),
    );
}

impl Tree {
    fn new(random: &mut Random) -> Tree {
        let dir = sandbox_dir("noop-record");
        let mut tree = Tree { repo: dir.join("repo"), cache: dir.join("cache"), bundles: Vec::new(), next: 0 };
        std::fs::create_dir_all(tree.repo.join("node_modules/ignored")).unwrap();
        for _ in 0..3 {
            tree.add_bundle(random, "");
        }
        tree
    }

    fn add_bundle(&mut self, random: &mut Random, under: &str) {
        let name = format!("bundle-{}", self.next);
        self.next += 1;
        let relative = format!("{under}{name}");
        write_bundle(&self.repo.join(&relative), &name, &format!("word-{}", random.below(1000)));
        self.bundles.push(relative);
        self.bundles.sort();
    }

    fn build(&self, flags: &[&str]) -> (Output, Path) {
        let output = cli()
            .env("AGENT_BUNDLE_CACHE_DIR", &self.cache)
            .env("AGENT_BUNDLE_TRACE", "noop-record")
            .args(["build", "--recursive", "--root"])
            .arg(&self.repo)
            .args(flags)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let path = if stderr.contains("no-op record replayed") { Path::Replayed } else { Path::Checked };
        (output, path)
    }

    fn artifacts(&self) -> BTreeMap<String, BTreeMap<String, (Vec<u8>, u32)>> {
        self.bundles.iter().map(|bundle| (bundle.clone(), tree_of(&self.repo.join(bundle).join("artifact")))).collect()
    }

    /// The artifacts a clean `--no-cache` build of a copy of the sources (artifacts left out) makes.
    fn clean_artifacts(&self) -> BTreeMap<String, BTreeMap<String, (Vec<u8>, u32)>> {
        let copy = sandbox_dir("noop-record-clean").join("repo");
        copy_sources(&self.repo, &copy);
        let output = cli().args(["build", "--recursive", "--no-cache", "--root"]).arg(&copy).output().unwrap();
        assert!(output.status.success(), "the clean build failed: {}", String::from_utf8_lossy(&output.stderr));
        self.bundles.iter().map(|bundle| (bundle.clone(), tree_of(&copy.join(bundle).join("artifact")))).collect()
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Path {
    Replayed,
    Checked,
}

/// Every file under `dir` with its bytes and mode, but files agent-bundle leaves alone (`notes.txt`).
fn tree_of(dir: &Utf8Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    let mut files = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_type().is_file() && entry.file_name() != "notes.txt" {
            let relative = entry.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            let mode = entry.metadata().unwrap().permissions().mode() & 0o777;
            files.insert(relative, (std::fs::read(entry.path()).unwrap(), mode));
        }
    }
    files
}

fn copy_sources(from: &Utf8Path, to: &Utf8Path) {
    for entry in walkdir::WalkDir::new(from).into_iter().filter_entry(|e| e.file_name() != "artifact") {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap().to_str().unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else if entry.file_type().is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), &target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The steps a tree takes between builds.
const STEPS: &[&str] = &[
    "nothing",
    "nothing",
    "edit",
    "touch",
    "chmod",
    "add",
    "nest",
    "hide",
    "remove",
    "licence",
    "package.json",
    "delete artifact file",
    "foreign artifact file",
    "config link",
];

/// Takes one step; returns what it did, for the failure message.
fn step(tree: &mut Tree, random: &mut Random) -> String {
    let kind = random.pick(STEPS);
    let bundle = tree.bundles[random.below(tree.bundles.len())].clone();
    let root = tree.repo.join(&bundle);
    match kind {
        "nothing" => {}
        "edit" => write_file(
            root.as_std_path(),
            "src/lib/shared.ts",
            &format!("export const word = 'edited-{}';\n", random.below(1000)),
        ),
        "touch" => {
            let file = std::fs::File::options().append(true).open(root.join("src/hooks/guard.ts")).unwrap();
            file.set_modified(std::time::SystemTime::now()).unwrap();
        }
        "chmod" => {
            let path = root.join("src/hooks/start.ts");
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() ^ 0o010;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        "add" => tree.add_bundle(random, ""),
        "nest" => tree.add_bundle(random, "group/"),
        // Written again, a hidden bundle or a foreign file changes nothing a build looks at.
        "hide" if tree.repo.join(".hidden").exists() => return "nothing (hidden again)".into(),
        "hide" => write_bundle(&tree.repo.join(".hidden/bundle"), "hidden", "hidden"),
        "remove" if tree.bundles.len() > 1 => {
            std::fs::remove_dir_all(&root).unwrap();
            tree.bundles.retain(|b| *b != bundle);
        }
        "remove" => return format!("nothing (remove of the last bundle, {bundle})"),
        "licence" => write_file(root.as_std_path(), "LICENSE", &format!("MIT {}\n", random.below(1000))),
        "package.json" => write_file(
            tree.repo.as_std_path(),
            "package.json",
            &format!("{{ \"name\": \"r{}\" }}\n", random.below(1000)),
        ),
        "delete artifact file" => {
            // Not the manifest: without it the folder is no longer agent-bundle's to replace.
            let files: Vec<String> = tree_of(&root.join("artifact"))
                .into_keys()
                .filter(|f| f != agent_bundle::artifact::MANIFEST_PATH)
                .collect();
            let victim = files[random.below(files.len())].clone();
            std::fs::remove_file(root.join("artifact").join(victim)).unwrap();
        }
        "foreign artifact file" if root.join("artifact/notes.txt").exists() => {
            return format!("nothing (foreign file again, {bundle})");
        }
        "foreign artifact file" => write_file(root.join("artifact").as_std_path(), "notes.txt", "mine\n"),
        "config link" => {
            let config = root.join("agent-bundle.config.ts");
            let moved = root.join("config-source.ts");
            if moved.exists() {
                return format!("nothing (linked again, {bundle})");
            }
            std::fs::rename(&config, &moved).unwrap();
            std::os::unix::fs::symlink("config-source.ts", &config).unwrap();
        }
        _ => unreachable!(),
    }
    format!("{kind} ({bundle})")
}

fn text(output: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn sequence(seed: u64, steps: usize) {
    let mut random = Random(seed);
    let mut tree = Tree::new(&mut random);
    let mut done = Vec::new();
    let fail = |done: &[String], why: String| -> ! { panic!("seed {seed}, after steps {done:?}: {why}") };
    std::thread::sleep(SETTLE);
    let (first, _) = tree.build(&[]);
    assert!(first.status.success(), "{}", text(&first));
    for _ in 0..steps {
        // Settle: a no-op keeps the record (the build before it may have written too recently),
        // and the next one replays it.
        std::thread::sleep(SETTLE);
        let (settling, _) = tree.build(&[]);
        std::thread::sleep(SETTLE);
        let (replayed, path) = tree.build(&[]);
        if path != Path::Replayed {
            fail(&done, format!("a settled tree did not replay its record\n{}\n{}", text(&settling), text(&replayed)));
        }
        if replayed.stdout != settling.stdout {
            fail(&done, format!("the replay differs from the check\n{}\n{}", text(&settling), text(&replayed)));
        }

        let did = step(&mut tree, &mut random);
        let changed = !did.starts_with("nothing");
        done.push(did);
        std::thread::sleep(SETTLE);
        let (after, path) = tree.build(&[]);
        if !after.status.success() {
            fail(&done, format!("the build failed\n{}", text(&after)));
        }
        if changed == (path == Path::Replayed) {
            fail(&done, format!("took the {path:?} path\n{}", text(&after)));
        }
        let (built, clean) = (tree.artifacts(), tree.clean_artifacts());
        if built != clean {
            let differs: Vec<&String> = built.keys().filter(|b| built.get(*b) != clean.get(*b)).collect();
            fail(&done, format!("the artifacts of {differs:?} differ from a clean build\n{}", text(&after)));
        }
    }
}

#[test]
fn the_no_op_record_replays_only_an_unchanged_tree_and_only_what_the_check_prints() {
    if let Ok(seed) = std::env::var("AGENT_BUNDLE_PROPERTY_SEED") {
        sequence(seed.parse().expect("a seed is a number"), 16);
        return;
    }
    let seconds: u64 = std::env::var("AGENT_BUNDLE_PROPERTY_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    if seconds == 0 {
        for seed in [1, 2] {
            sequence(seed, 10);
        }
        return;
    }
    let until = std::time::Instant::now() + Duration::from_secs(seconds);
    let mut sequences = 0;
    while std::time::Instant::now() < until {
        let seed = u64::try_from(
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
                % u128::from(u64::MAX),
        )
        .unwrap();
        sequence(seed, 16);
        sequences += 1;
    }
    println!("{sequences} sequences of 16 steps");
}

/// With `--json` and with `--explain`, the replay prints what the per-bundle check prints, and each
/// flag has its own record (each prints differently).
#[test]
fn json_and_explain_replay_what_the_check_prints() {
    let mut random = Random(7);
    let tree = Tree::new(&mut random);
    std::thread::sleep(SETTLE);
    assert!(tree.build(&[]).0.status.success());
    for flags in [&["--json"][..], &["--explain"], &["--json", "--explain"], &["--target", "codex"]] {
        std::thread::sleep(SETTLE);
        let (mut checked, first) = tree.build(flags);
        assert_eq!(first, Path::Checked, "{flags:?} has a record of its own\n{}", text(&checked));
        // A run that wrote the artifact (`--target` narrows it) keeps no record: what it wrote is
        // too recent to vouch for itself. The no-op after it does.
        if !String::from_utf8_lossy(&checked.stderr).contains("no-op record kept") {
            std::thread::sleep(SETTLE);
            checked = tree.build(flags).0;
            assert!(String::from_utf8_lossy(&checked.stderr).contains("no-op record kept"), "{}", text(&checked));
        }
        std::thread::sleep(SETTLE);
        let (replayed, path) = tree.build(flags);
        assert_eq!(path, Path::Replayed, "{flags:?}\n{}", text(&replayed));
        assert_eq!(String::from_utf8_lossy(&replayed.stdout), String::from_utf8_lossy(&checked.stdout), "{flags:?}");
        assert!(replayed.status.success());
    }
}

/// The record holds canonical paths, and its key the root as written: the same tree reached by
/// another spelling or through a link has its own record and prints its own names.
#[test]
fn another_spelling_of_the_root_prints_its_own_names() {
    let mut random = Random(11);
    let tree = Tree::new(&mut random);
    let link = tree.repo.parent().unwrap().join("link");
    std::os::unix::fs::symlink(&tree.repo, &link).unwrap();
    std::thread::sleep(SETTLE);
    assert!(tree.build(&[]).0.status.success());
    let run = |root: &Utf8Path| {
        cli()
            .env("AGENT_BUNDLE_CACHE_DIR", &tree.cache)
            .env("AGENT_BUNDLE_TRACE", "noop-record")
            .args(["build", "--recursive", "--root"])
            .arg(root)
            .output()
            .unwrap()
    };
    for root in [tree.repo.clone(), link.clone(), tree.repo.join(".")] {
        std::thread::sleep(SETTLE);
        run(&root);
        std::thread::sleep(SETTLE);
        let replayed = run(&root);
        let stdout = String::from_utf8_lossy(&replayed.stdout);
        assert!(String::from_utf8_lossy(&replayed.stderr).contains("replayed"), "{}", text(&replayed));
        let headers: Vec<&str> = stdout.lines().filter_map(|l| l.strip_prefix("== ")).collect();
        assert!(headers.iter().all(|h| h.starts_with(root.as_str())), "{root}: {headers:?}");
        assert_eq!(headers.len(), 3);
    }
}
