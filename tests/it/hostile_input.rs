//! Hostile and broken input never crashes, hangs or floods a build (issue 23): each test is one of
//! the fuzzer's reproducers, run through the real binary, and asserts a diagnostic with a code (exit
//! 1), never an abort (134), a panic (101) or a hang.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::write_file;

const CONFIG_HEAD: &str = "import { defineConfig } from 'agent-bundle/config';\n";
const PLUGIN: &str = "plugin: { name: 'hostile', description: 'd', version: '1.0.0', author: 'a' }";

fn config(hooks: &str) -> String {
    format!(
        "{CONFIG_HEAD}export default defineConfig({{\n  hooks: {hooks},\n  {PLUGIN},\n  targets: ['claude'],\n}});\n"
    )
}

/// Runs `cargo agent-bundle build` on `root`, killing it after 60 s (a hang is a failure, not a
/// stuck test).
fn build(root: &Path) -> Output {
    let mut child = common::cli()
        .arg("build")
        .arg("--root")
        .arg(root)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("the build hung: {:?}", child.wait_with_output().unwrap());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Asserts that a build failed with a coded diagnostic (exit 1, `error[AB…]` on stderr), naming
/// `needle`.
fn fails_with(output: &Output, code: &str, needle: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "not a reported failure: {stderr}");
    assert!(stderr.contains(&format!("error[{code}]")), "no {code}: {stderr}");
    assert!(stderr.contains(needle), "does not name {needle:?}: {stderr}");
}

#[test]
fn an_extension_less_import_without_a_default_is_a_diagnostic_not_a_panic() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    write_file(root, "agent-bundle.config.ts", &config("{ sessionStart: './src/start.ts' }"));
    write_file(root, "src/data", "export const x = 1;\n");
    write_file(
        root,
        "src/start.ts",
        "import x from './data';\nexport default async () => ({ additionalContext: String(x) });\n",
    );
    fails_with(&build(root), "AB4833", "./data");
}

#[test]
fn a_config_nested_thousands_deep_is_refused_at_its_place() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
    write_file(
        root,
        "agent-bundle.config.ts",
        &format!("{CONFIG_HEAD}const deep = {deep};\n{}", config("{}").replace(CONFIG_HEAD, "")),
    );
    fails_with(&build(root), "AB1015", "agent-bundle.config.ts:2:");
}

#[test]
fn a_long_chain_of_constant_references_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    let mut text = String::from(CONFIG_HEAD);
    text.push_str("const c0 = './src/start.ts';\n");
    for index in 1..20_000 {
        text.push_str(&format!("const c{index} = c{};\n", index - 1));
    }
    text.push_str(&config("{ sessionStart: c19999 }").replace(CONFIG_HEAD, ""));
    write_file(root, "agent-bundle.config.ts", &text);
    write_file(root, "src/start.ts", "export default async () => ({});\n");
    fails_with(&build(root), "AB1015", "constant references");
}

#[test]
fn a_handler_nested_thousands_deep_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    write_file(root, "agent-bundle.config.ts", &config("{ sessionStart: './src/start.ts' }"));
    let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
    write_file(
        root,
        "src/start.ts",
        &format!("const x = {deep};\nexport default async () => ({{ additionalContext: String(x) }});\n"),
    );
    fails_with(&build(root), "AB4849", "deeper than");
}

#[test]
fn a_package_json_nested_two_hundred_thousand_deep_does_not_abort_the_build() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    write_file(root, "agent-bundle.config.ts", &config("{ sessionStart: './src/start.ts' }"));
    write_file(
        root,
        "src/start.ts",
        "import { v } from 'deep';\nexport default async () => ({ additionalContext: v });\n",
    );
    let nested = format!("{}1{}", "[".repeat(200_000), "]".repeat(200_000));
    write_file(
        root,
        "node_modules/deep/package.json",
        &format!("{{ \"name\": \"deep\", \"main\": \"index.js\", \"x\": {nested} }}"),
    );
    write_file(root, "node_modules/deep/index.js", "export const v = 'v';\n");
    let output = build(root);
    // Built or refused, but never an abort.
    assert!(matches!(output.status.code(), Some(0 | 1)), "{output:?}");
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_as_config_or_handler_is_refused_without_blocking() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    write_file(root, "agent-bundle.config.ts", &config("{ sessionStart: './src/start.ts' }"));
    std::fs::create_dir_all(root.join("src")).unwrap();
    let status = Command::new("mkfifo").arg(root.join("src/start.ts")).status().unwrap();
    assert!(status.success(), "mkfifo");
    fails_with(&build(root), "AB4220", "is not a regular file");
    // A FIFO a handler imports: not a file to the resolver, refused at the import.
    std::fs::remove_file(root.join("src/start.ts")).unwrap();
    write_file(
        root,
        "src/start.ts",
        "import data from './data.txt';\nexport default async () => ({ additionalContext: data });\n",
    );
    let status = Command::new("mkfifo").arg(root.join("src/data.txt")).status().unwrap();
    assert!(status.success(), "mkfifo");
    fails_with(&build(root), "AB4831", "./data.txt");
    // The config itself a link to /dev/zero: refused, not read forever.
    std::fs::remove_file(root.join("agent-bundle.config.ts")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", root.join("agent-bundle.config.ts")).unwrap();
    fails_with(&build(root), "AB1003", "agent-bundle.config.ts` is not a regular file");
}

#[test]
fn control_characters_from_the_input_never_reach_the_terminal() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    let hostile = "bad\u{1b}]0;owned\u{7}\u{1b}[2Jname\u{9b}2J";
    let text = config("{}").replace("name: 'hostile'", &format!("name: '{hostile}'"));
    write_file(root, "agent-bundle.config.ts", &text);
    let output = build(root);
    for stream in [&output.stdout, &output.stderr] {
        assert!(!stream.iter().any(|b| *b == 0x1b || *b == 0x07), "{}", String::from_utf8_lossy(stream));
        assert!(!String::from_utf8_lossy(stream).contains('\u{9b}'));
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("\\u001b]0;owned\\u0007"), "{stderr}");
}

#[test]
fn build_recursive_survives_one_bundles_failure_of_any_kind() {
    let temp = tempfile::tempdir().unwrap();
    for name in ["a-fine", "b-broken", "c-fine"] {
        let root = temp.path().join(name);
        write_file(
            &root,
            "agent-bundle.config.ts",
            &config("{ sessionStart: './src/start.ts' }").replace("'hostile'", &format!("'{name}'")),
        );
        write_file(&root, "src/start.ts", "export default async () => ({});\n");
    }
    // The fault-injection hook makes the build of `b-broken` panic, as a bug would.
    let output = common::cli()
        .args(["build", "--recursive", "--root"])
        .arg(temp.path())
        .env("AGENT_BUNDLE_FAULT_PANIC_IN", "b-broken")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error[AB5006]") && stderr.contains("b-broken"), "{stderr}");
    for fine in ["a-fine", "c-fine"] {
        assert!(
            temp.path().join(fine).join("artifact/agent-bundle.manifest.json").is_file(),
            "{fine} was not built: {stderr}"
        );
    }
    assert!(!temp.path().join("b-broken/artifact").exists());
}

/// `n` distinct `beforeTool` entries on one handler.
fn many_entries(n: usize) -> String {
    let entries: String =
        (1..=n).map(|i| format!("    {{ handler: './src/guard.ts', tools: ['shell'], timeout: {i} }},\n")).collect();
    format!("{{ beforeTool: [\n{entries}  ] }}")
}

#[test]
fn twenty_thousand_hooks_are_refused_at_once_naming_the_first_past_the_limit() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    write_file(root, "agent-bundle.config.ts", &config(&many_entries(20_000)));
    write_file(root, "src/guard.ts", "export default async () => ({});\n");
    let output = build(root);
    // The entry past the limit: the config's line 3 holds `hooks: { beforeTool: [`, entry i is on line 3 + i.
    fails_with(&output, "AB4237", &format!("agent-bundle.config.ts:{}:", 3 + 4097));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("20000 hooks, more than the 4096"), "{stderr}");
    assert_eq!(stderr.matches("error[").count(), 1, "one error, not one per hook: {stderr}");
    assert!(!root.join("artifact").exists());
}

#[test]
fn config_entries_and_routes_together_past_the_limit_are_refused() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    write_file(root, "agent-bundle.config.ts", &config(&many_entries(4095)));
    write_file(root, "src/guard.ts", "export default async () => ({});\n");
    for family in ["session/start", "session/end"] {
        write_file(
            root,
            &format!("src/events/{family}.tsx"),
            "export default async function Route() { return null; }\n",
        );
    }
    let output = build(root);
    fails_with(&output, "AB4237", "4095 config entries and 2 event routes");
}

/// A config (with `prefix` before its export) and, when `handler` is given, the handler module of
/// its one hook, in a new temporary bundle.
fn bundle_with(prefix: &str, handler: Option<&str>) -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    let hooks = if handler.is_some() { "{ sessionStart: './src/start.ts' }" } else { "{}" };
    write_file(
        root,
        "agent-bundle.config.ts",
        &format!("{CONFIG_HEAD}{prefix}{}", config(hooks).replace(CONFIG_HEAD, "")),
    );
    if let Some(handler) = handler {
        write_file(root, "src/start.ts", handler);
    }
    temp
}

fn handler_with(statements: &str) -> String {
    format!("{statements}export default async () => ({{ additionalContext: 'deep' }});\n")
}

/// Runs `check` on every construct of [`common::deep`], two at a time.
fn each_construct(check: impl Fn(&common::deep::Deep) + Sync) {
    let constructs: Vec<_> = common::deep::CONSTRUCTS.iter().collect();
    std::thread::scope(|scope| {
        for half in constructs.chunks(constructs.len().div_ceil(2)) {
            let check = &check;
            scope.spawn(move || half.iter().for_each(|deep| check(deep)));
        }
    });
}

#[test]
fn every_recursive_construct_nested_twenty_thousand_deep_is_refused_at_its_place() {
    each_construct(|deep| {
        let text = (deep.write)(20_000);
        let config = bundle_with(&text, None);
        let output = build(config.path());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{}: a config, not refused: {stderr}", deep.name);
        assert!(
            stderr.contains("error[AB1015]") && stderr.contains("agent-bundle.config.ts:"),
            "{}: {stderr}",
            deep.name
        );
        let handler = bundle_with("", Some(&handler_with(&text)));
        let output = build(handler.path());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{}: a handler, not refused: {stderr}", deep.name);
        assert!(stderr.contains("error[AB4849]") && stderr.contains("deeper than"), "{}: {stderr}", deep.name);
    });
}

/// The deepest text of each construct that the nesting limits let through builds: the limits stay
/// below what the parsers, the bundler and agent-bundle's own readers survive.
#[test]
fn every_recursive_construct_as_deep_as_the_limits_allow_builds() {
    use agent_bundle::vocabulary::nesting::{MAX_CONFIG_NESTING, MAX_MODULE_NESTING, past_limit};
    // The greatest depth whose text stays within `limit`.
    let deepest = |text: &dyn Fn(usize) -> String, limit: usize| {
        let (mut low, mut high) = (1, limit + 1);
        while low < high {
            let middle = (low + high).div_ceil(2);
            if past_limit(&text(middle), false, limit).is_none() { low = middle } else { high = middle - 1 }
        }
        low
    };
    each_construct(|deep| {
        let in_config = |depth: usize| format!("{CONFIG_HEAD}{}", (deep.write)(depth));
        let depth = deepest(&in_config, MAX_CONFIG_NESTING);
        let config = bundle_with(&(deep.write)(depth), None);
        let output = build(config.path());
        assert_eq!(output.status.code(), Some(0), "{} {depth} deep in a config: {output:?}", deep.name);

        let in_handler = |depth: usize| handler_with(&(deep.write)(depth));
        let depth = deepest(&in_handler, MAX_MODULE_NESTING);
        let handler = bundle_with("", Some(&in_handler(depth)));
        let output = build(handler.path());
        assert_eq!(output.status.code(), Some(0), "{} {depth} deep in a handler: {output:?}", deep.name);
    });
}

/// Expressions wrapped in a random mix of recursive constructs, thousands deep, in a handler: the
/// build either bundles it or refuses it (AB4849), and never aborts (generated, seeded). For a long
/// run: `AGENT_BUNDLE_FUZZ_SECONDS=600 cargo test --test it hostile_input::random_mixes -- --nocapture`.
#[test]
fn random_mixes_of_deep_constructs_in_a_handler_never_abort_the_build() {
    // Each keeps what it wraps in its own brackets, so that any mix is valid TypeScript.
    const WRAPPERS: &[(&str, &str)] = &[
        ("(", ")"),
        ("[", "]"),
        ("{ a: ", " }"),
        ("- (", ")"),
        ("!(", ")"),
        ("typeof (", ")"),
        ("`${", "}`"),
        ("c ? (", ") : 1"),
        ("c ? 1 : (", ")"),
        ("(x) => (", ")"),
        ("1 ** (", ")"),
        ("f(", ")"),
        ("<any>(", ")"),
        ("(", ").a"),
        ("(", ")()"),
        ("(", " as any)"),
    ];
    // `AGENT_BUNDLE_FUZZ_SECONDS=<n>`: more seeds, as many as two builds at a time run in n seconds.
    let seconds: u64 = std::env::var("AGENT_BUNDLE_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    let seeds: Vec<u64> = if seconds == 0 { (1..=16).collect() } else { (1..=200_000).collect() };
    let started = std::time::Instant::now();
    let slowest = std::sync::Mutex::new((std::time::Duration::ZERO, 0u64));
    let built = std::sync::atomic::AtomicUsize::new(0);
    let refused = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for half in seeds.chunks(seeds.len() / 2) {
            let (built, refused, slowest) = (&built, &refused, &slowest);
            scope.spawn(move || {
                for &seed in half {
                    if seconds > 0 && started.elapsed().as_secs() >= seconds {
                        break;
                    }
                    let case_started = std::time::Instant::now();
                    let mut random = common::Random::seeded(seed);
                    let levels = [100, 1000, 2000, 3000, 5000][random.below(5)];
                    let (mut open, mut close) = (String::new(), String::new());
                    for _ in 0..levels {
                        let (before, after) = WRAPPERS[random.below(WRAPPERS.len())];
                        open.push_str(before);
                        close.insert_str(0, after);
                    }
                    let statements =
                        format!("const c: any = 1, f: any = () => f;\nconst deep: any = {open}1{close};\n");
                    let bundle = bundle_with("", Some(&handler_with(&statements)));
                    let output = build(bundle.path());
                    let stderr = String::from_utf8_lossy(&output.stderr);
                    match output.status.code() {
                        Some(0) => _ = built.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
                        Some(1) => {
                            assert!(stderr.contains("error[AB4849]"), "seed {seed}: {stderr}");
                            refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                        _ => panic!("seed {seed} ({levels} levels) aborted the build: {output:?}"),
                    }
                    let mut slowest = slowest.lock().unwrap();
                    if case_started.elapsed() > slowest.0 {
                        *slowest = (case_started.elapsed(), seed);
                    }
                }
            });
        }
    });
    let (built, refused) = (built.into_inner(), refused.into_inner());
    let (time, seed) = slowest.into_inner().unwrap();
    println!("{built} mixes built, {refused} refused; the slowest, seed {seed}, took {time:?}");
    assert!(
        built > 0 && refused > 0,
        "the seeds no longer reach both sides of the limit: {built} built, {refused} refused"
    );
}

/// The fuzzer's slowest case (574 s on main): nesting after a `//` comment ended by U+2028, which
/// JavaScript ends lines at, so the nesting limit missed it and swc checked thousands of labels
/// against each other. Now refused at once; and a parser that recovers from thousands of errors
/// reports the first 20, saying how many more there are.
#[test]
fn nesting_after_a_comment_ended_by_any_line_terminator_is_refused_and_syntax_errors_are_capped() {
    for terminator in ["\u{2028}", "\u{2029}", "\r"] {
        let deep = format!("// a comment{terminator}{}1{}\n", "{ a: ".repeat(20_000), " }".repeat(20_000));
        let bundle = bundle_with(&deep, None);
        fails_with(&build(bundle.path()), "AB1015", "agent-bundle.config.ts:2:");
    }
    let labels = format!("{}1{}\n", "a: { ".repeat(100), " }".repeat(100));
    let bundle = bundle_with(&labels, None);
    let output = build(bundle.path());
    fails_with(&output, "AB1010", "Label a is already declared");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("error[AB1010]").count(), 20, "{stderr}");
    assert!(stderr.contains("4930 more syntax errors in this file are not shown"), "{stderr}");
}

/// A text on which swc's own checks fail (its debug builds assert that an arrow after a
/// parenthesised list follows one item; found by the config fuzzer's 10-minute run): a syntax error
/// of the config (AB1010), never a crash.
#[test]
fn a_text_the_parser_gives_up_on_is_a_syntax_error() {
    let temp = tempfile::tempdir().unwrap();
    write_file(temp.path(), "agent-bundle.config.ts", "export default {\n  a: ( 'x',\n    b: 'y'=>,\n};\n");
    fails_with(&build(temp.path()), "AB1010", "agent-bundle.config.ts:");
}
