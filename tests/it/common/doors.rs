//! Generated handlers that write to stdout through every door a handler has (testdata/bundles/
//! wrapper-matrix's `writes by generated doors, then a result` shape), for the property that nothing
//! a handler writes reaches the host's answer, in every form a host runs a wrapper in: the POSIX
//! handover (`3>&1 1>&2`), the exec and shared forms (no handover), and, in the real-host suite, the
//! Windows forms under Windows Node.

use serde_json::{Value, json};

use super::Random;

/// The shape that runs a plan.
pub const SHAPE: &str = "writes by generated doors, then a result";
/// The variable holding the plan.
pub const PLAN: &str = "AGENT_BUNDLE_FUZZ_PLAN";
/// What every generated write carries, so a leak is found wherever it lands.
pub const LEAK: &str = "LEAK";

/// Every door the shape knows (its `writes`).
pub const DOORS: &[&str] = &[
    "console.log",
    "console.info",
    "console.table",
    "process.stdout.write",
    "fs.writeSync(1)",
    "fs.write(1)",
    "fs.writeFileSync(1)",
    "a stream on fd 1",
    "/dev/stdout",
    "spawnSync inherit",
    "spawnSync [0, 1, 2]",
    "spawn inherit",
    "spawn [pipe, process.stdout, pipe]",
    "spawn [ignore, inherit, 1]",
    "execSync inherit",
    "execFileSync inherit",
    "a worker of code",
    "a worker of code, console",
    "a worker of a file",
];

/// The results a plan ends with: every outcome a guard gives, some illegal on some events (which
/// fail the hook the same way with or without the writes).
fn result(random: &mut Random) -> Value {
    match random.below(7) {
        0 => Value::Null,
        1 => json!({ "outcome": "continue" }),
        2 => json!({ "outcome": "deny", "reason": "generated denial" }),
        3 => json!({ "additionalContext": "generated context" }),
        4 => json!({ "outcome": "deny", "reason": "generated denial", "additionalContext": "generated context" }),
        5 => json!({ "outcome": "allow" }),
        _ => json!({ "updatedInput": { "command": "echo rewritten" } }),
    }
}

/// Case `seed`'s plan: door `seed` (so consecutive seeds cover every door) and up to three more,
/// some after a pause, then a result; and the same plan without its writes.
pub fn plan(seed: u64) -> (Value, Value) {
    let mut random = Random::seeded(seed);
    let mut doors = vec![DOORS[seed as usize % DOORS.len()]];
    for _ in 0..random.below(4) {
        doors.push(random.pick(DOORS));
    }
    let writes: Vec<Value> = doors
        .iter()
        .enumerate()
        .map(|(index, door)| {
            let pause = if random.chance(20) { 5 } else { 0 };
            json!({ "door": door, "text": format!("{LEAK}-{seed}-{index}"), "pause": pause })
        })
        .collect();
    let result = result(&mut random);
    (json!({ "writes": writes, "result": result }), json!({ "writes": [], "result": result }))
}

/// testdata/bundles/wrapper-matrix built with a 60 s timeout on every hook instead of 2 s, for the
/// generated handlers: a plan may start up to four node children and workers, which a loaded
/// machine (or Wine) can stretch past the matrix's 1.6 s deadline, and a deadline the plain run
/// meets and the writing run misses would be a difference of load, not of doors.
pub fn unhurried_matrix() -> (tempfile::TempDir, camino::Utf8PathBuf) {
    let source = tempfile::tempdir().unwrap();
    let root = source.path().join("wrapper-matrix");
    super::copy_tree(std::path::Path::new("testdata/bundles/wrapper-matrix"), &root);
    let config = root.join("agent-bundle.config.ts");
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(text.contains("timeout: 2 }"), "the matrix's hooks give their timeout as `timeout: 2`");
    std::fs::write(&config, text.replace("timeout: 2 }", "timeout: 60 }").replace("timeout: 2,", "timeout: 60,"))
        .unwrap();
    let (built, artifact) = super::build_root(camino::Utf8Path::from_path(&root).unwrap());
    // The source is not needed once built: the artifact runs without it.
    drop(source);
    (built, artifact)
}
