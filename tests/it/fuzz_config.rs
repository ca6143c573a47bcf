//! A fuzz target for the config extractor and reader (issue 23): the configs of the example bundles,
//! mutated at random (spans deleted, repeated and swapped; tokens, hostile strings and deep nesting
//! inserted, and every recursive construct of `common::deep`), each loaded the way a build loads it
//! and its diagnostics rendered. Whatever the text, loading returns (no panic, no overflow), every
//! diagnostic carries a code, and every label points into the config inside its bounds.
//!
//! `cargo test` runs a few hundred cases from fixed seeds. For longer runs:
//!
//!   AGENT_BUNDLE_FUZZ_SECONDS=600 cargo test --test it fuzz_config:: -- --nocapture
//!
//! `AGENT_BUNDLE_FUZZ_SEED=<n>` replays one case; a failure names its seed and keeps its text.

use crate::common;

use agent_bundle::io::RealDisk;
use common::Random;

/// Pieces the mutator inserts: syntax, literal edge cases, hostile text.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    ",",
    ":",
    ";",
    "...",
    "=>",
    "'x'",
    "\"y\"",
    "`t${a}`",
    "1e309",
    "-0",
    "0x10",
    "1_000",
    "NaN",
    "undefined",
    "null",
    "true",
    "as const",
    "satisfies X",
    "!",
    "const a = a;",
    "const b = c;",
    "export default",
    "function f() { return {}; }",
    "() => ({})",
    "hooks",
    "plugin",
    "targets",
    "'claude'",
    "'./src/x.ts'",
    "timeout: 1e9",
    "tools: ['*']",
    "\n",
    "\u{1b}[2J",
    "'\u{1b}]0;t\u{7}'",
    "'\u{0}'",
    "é",
    "🦀",
    "\u{feff}",
    "\u{2028}",
    "/*",
    "*/",
    "//",
    "'\\u{10FFFF}'",
    "'\\x'",
    "<div>",
    "#private",
    "@decorator",
];

fn corpus() -> Vec<String> {
    let mut texts = Vec::new();
    for entry in std::fs::read_dir("testdata/bundles").unwrap().flatten() {
        if let Ok(text) = std::fs::read_to_string(entry.path().join("agent-bundle.config.ts")) {
            texts.push(text);
        }
    }
    texts.sort();
    assert!(!texts.is_empty(), "no configs in testdata/bundles");
    texts
}

/// A char boundary at or before `index`.
fn boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

fn mutate(random: &mut Random, text: &str) -> String {
    let mut text = text.to_string();
    for _ in 0..1 + random.below(6) {
        let len = text.len().max(1);
        let a = boundary(&text, random.below(len));
        let b = boundary(&text, a + random.below(len - a + 1));
        match random.below(6) {
            0 => text.replace_range(a..b, ""),
            1 => {
                let span = text[a..b].to_string();
                text.insert_str(b, &span);
            }
            2 | 3 => {
                let token = random.pick(TOKENS);
                text.insert_str(a, token);
            }
            4 if random.chance(50) => {
                // Any recursive construct the parsers descend into, sometimes past every limit.
                let depth = [10, 200, 500, 600, 3000, 20_000][random.below(6)];
                let deep = &common::deep::CONSTRUCTS[random.below(common::deep::CONSTRUCTS.len())];
                text.insert_str(a, &(deep.write)(depth));
            }
            4 => {
                // Deep nesting, sometimes past every limit.
                let depth = [10, 200, 600, 3000][random.below(4)];
                let open = random.pick(&["[", "{ a: ", "(", "[{ x: "]);
                let close = match open {
                    "[" => "]",
                    "(" => ")",
                    "{ a: " => " }",
                    _ => " }]",
                };
                let nested = format!("{}1{}", open.repeat(depth), close.repeat(depth));
                text.insert_str(a, &nested);
            }
            _ => {
                // Swap two spans.
                let c = boundary(&text, b + random.below(len.saturating_sub(b) + 1));
                let (first, second) = (text[a..b].to_string(), text[b..c].to_string());
                text.replace_range(a..c, &format!("{second}{first}"));
            }
        }
    }
    text
}

/// Loads one text as a bundle's config; `Err` says which invariant broke.
fn check(dir: &camino::Utf8Path, text: &str) -> Result<(), String> {
    std::fs::write(dir.join("agent-bundle.config.ts"), text).unwrap();
    let loaded = std::panic::catch_unwind(|| agent_bundle::pipeline::load(dir, &RealDisk))
        .map_err(|_| "loading panicked".to_string())?;
    let sources: Vec<_> = loaded.sources.iter().collect();
    for diagnostic in &loaded.diagnostics {
        std::panic::catch_unwind(|| agent_bundle::diagnostic::render_human(diagnostic, &sources))
            .map_err(|_| format!("rendering {} panicked", diagnostic.code.as_str()))?;
        for label in &diagnostic.labels {
            let location = &label.location;
            if location.file.as_str() == "agent-bundle.config.ts" {
                let lines = text.split('\n').count() as u32;
                if location.line == 0 || location.line > lines || location.span.end as usize > text.len() {
                    return Err(format!("{} points outside the config: {location:?}", diagnostic.code.as_str()));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn no_config_text_crashes_loading_or_rendering() {
    let corpus = corpus();
    let temp = tempfile::tempdir().unwrap();
    let dir = camino::Utf8PathBuf::from_path_buf(temp.path().to_path_buf()).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let slowest = std::cell::Cell::new((std::time::Duration::ZERO, 0u64));
    let run = |seed: u64| {
        let started = std::time::Instant::now();
        let mut random = Random::seeded(seed);
        let base = &corpus[random.below(corpus.len())];
        let text = mutate(&mut random, base);
        if std::env::var_os("AGENT_BUNDLE_FUZZ_DUMP").is_some() {
            std::fs::write(std::env::temp_dir().join(format!("fuzz-config-{seed}.ts")), &text).unwrap();
        }
        if let Err(why) = check(&dir, &text) {
            let kept = std::env::temp_dir().join(format!("fuzz-config-{seed}.ts"));
            std::fs::write(&kept, &text).unwrap();
            panic!("seed {seed}: {why} (text kept in {})", kept.display());
        }
        if started.elapsed() > slowest.get().0 {
            slowest.set((started.elapsed(), seed));
        }
    };
    if let Ok(seed) = std::env::var("AGENT_BUNDLE_FUZZ_SEED") {
        run(seed.parse().expect("AGENT_BUNDLE_FUZZ_SEED is a number"));
        return;
    }
    let seconds: u64 = std::env::var("AGENT_BUNDLE_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut cases = 0u64;
    if seconds == 0 {
        for seed in 1..=300 {
            run(seed);
            cases += 1;
        }
    } else {
        let started = std::time::Instant::now();
        let base = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() << 20;
        while started.elapsed().as_secs() < seconds {
            run(base + cases);
            cases += 1;
        }
    }
    let (time, seed) = slowest.get();
    println!("{cases} mutated configs loaded and rendered without a crash; the slowest, seed {seed}, took {time:?}");
}
