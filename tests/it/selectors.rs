//! No selector is dead on arrival (D13): every selector form is compiled through the real pipeline
//! (config, normalise, plan) for each host with hooks, and the matcher the plan emits is evaluated with
//! that host's own matcher rule, as the host specs document it, against real tool names:
//!
//! - Claude Code (hosts-claude-codex.md §1.3): missing, `""` or `"*"` match every tool; a matcher of
//!   only `[A-Za-z0-9_|, -]` is a list of exact names split on `|` or `,` (`Task` also names `Agent`);
//!   anything else is a JavaScript regex tested unanchored.
//! - Codex (§2.4): only `[A-Za-z0-9_|]` is an exact list split on `|`; anything else a Rust regex,
//!   searched unanchored; a tool also answers to its aliases (`apply_patch` to `Write` and `Edit`,
//!   `spawn_agent` to `Agent`); an invalid regex skips the group.
//! - Gemini CLI (hosts-gemini-copilot-layout.md §1.2): `""` or `"*"` match every tool; a JavaScript
//!   regex tested unanchored; an invalid one falls back to equality.
//! - Copilot CLI (§2.2): a regex the host anchors as `^(?:…)$`; an invalid one skips the entry.
//! - Cursor (hosts-cursor-gemini-copilot.md §1, unverified): treated as an unanchored regex.
//!
//! The JavaScript rules run under the real `node`, all queries of a test in one process; the Codex rule
//! runs with the `regex` crate. Tool names come from the recorded envelopes (`tool_name`, `toolName`),
//! with the names the host tables and host specs list beside them where no envelope recorded one
//! (Cursor has none; Claude Code's and Codex's only show `Bash`).

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::process::{Command, Stdio};

use agent_bundle::diagnostic::{Code, Diagnostic};
use agent_bundle::io::RealDisk;
use agent_bundle::pipeline::plan::Delivery;
use agent_bundle::vocabulary::target::Target;
use common::Random;

/// The hosts with hooks.
const HOSTS: [Target; 5] = [Target::Claude, Target::Codex, Target::Copilot, Target::Cursor, Target::Gemini];

/// The folder of each host's recorded envelopes under `testdata/envelopes/` (and `../shared/envelopes/`).
fn envelope_folder(host: Target) -> Option<&'static str> {
    match host {
        Target::Claude => Some("claude-code"),
        Target::Codex => Some("codex"),
        Target::Copilot => Some("copilot-cli"),
        Target::Gemini => Some("gemini-cli"),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Compiling selectors through the real pipeline

/// One hook entry: the hosts it targets and its `tools`.
struct Entry {
    targets: Vec<Target>,
    tools: Vec<String>,
}

impl Entry {
    fn on(host: Target, tools: &[&str]) -> Entry {
        Entry { targets: vec![host], tools: tools.iter().map(|t| t.to_string()).collect() }
    }
}

/// What the pipeline made of one entry: the matcher each targeted host got (`None`: every tool), or
/// the errors pointing into the entry's line.
type Compiled = Result<BTreeMap<Target, Option<String>>, Vec<Diagnostic>>;

/// Writes one bundle holding every entry as a beforeTool hook, one entry per line, loads it (discover,
/// extract, config, normalise, plan: what `build` runs before bundling) and returns each entry's result.
fn compile(entries: &[Entry]) -> Vec<Compiled> {
    let root = common::sandbox_dir("selectors");
    std::fs::create_dir_all(root.join("src/hooks")).unwrap();
    std::fs::write(root.join("src/hooks/guard.ts"), "export default () => undefined;\n").unwrap();
    let mut config = String::from(
        "export default {\n  targets: ['claude', 'codex', 'copilot', 'cursor', 'gemini'],\n  hooks: {\n    beforeTool: [\n",
    );
    const FIRST_ENTRY_LINE: u32 = 5;
    for entry in entries {
        let targets: Vec<String> = entry.targets.iter().map(|t| format!("'{t}'")).collect();
        let tools = serde_json::to_string(&entry.tools).unwrap();
        config.push_str(&format!(
            "      {{ handler: './src/hooks/guard.ts', targets: [{}], tools: {tools} }},\n",
            targets.join(", ")
        ));
    }
    config.push_str("    ],\n  },\n};\n");
    std::fs::write(root.join("agent-bundle.config.ts"), &config).unwrap();

    let loaded = agent_bundle::pipeline::load(&root, &RealDisk);
    let bundle = loaded.bundle.as_ref().unwrap_or_else(|| panic!("the bundle loads: {:#?}", loaded.diagnostics));
    let outcome = entries
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let line = FIRST_ENTRY_LINE + i as u32;
            let errors: Vec<Diagnostic> = loaded
                .diagnostics
                .iter()
                .filter(|d| d.is_error() && d.primary_location().is_some_and(|at| at.line == line))
                .cloned()
                .collect();
            if !errors.is_empty() {
                return Err(errors);
            }
            let hook = bundle.normalised.hooks.iter().find(|h| h.declared_at.line == line).expect("a hook per entry");
            let plan = bundle.plans.iter().find(|p| p.hook_id == hook.id).expect("a plan per hook");
            let matchers = entry
                .targets
                .iter()
                .map(|target| {
                    let planned = plan.targets.iter().find(|t| t.target == *target).expect("a plan per target");
                    match &planned.delivery {
                        Delivery::Native { matcher, .. } => (*target, matcher.clone()),
                        Delivery::Absent { reason } => panic!("beforeTool is absent on {target}: {reason}"),
                    }
                })
                .collect();
            Ok(matchers)
        })
        .collect();
    let unplaced: Vec<&Diagnostic> = loaded
        .diagnostics
        .iter()
        .filter(|d| {
            d.is_error()
                && !d
                    .primary_location()
                    .is_some_and(|at| (FIRST_ENTRY_LINE..FIRST_ENTRY_LINE + entries.len() as u32).contains(&at.line))
        })
        .collect();
    assert!(unplaced.is_empty(), "errors outside the entries: {unplaced:#?}");
    let _ = std::fs::remove_dir_all(&root);
    outcome
}

// ---------------------------------------------------------------------------------------------
// Each host's own matcher semantics

/// The host names a tool also answers to in Codex's matchers (hosts-claude-codex.md §2.4).
fn codex_aliases(tool: &str) -> &'static [&'static str] {
    match tool {
        "apply_patch" => &["Write", "Edit"],
        "spawn_agent" => &["Agent"],
        _ => &[],
    }
}

/// Codex's rule, with the `regex` crate (Codex is written in Rust and uses it).
fn codex_matches(matcher: Option<&str>, tool: &str) -> bool {
    let names: Vec<&str> = std::iter::once(tool).chain(codex_aliases(tool).iter().copied()).collect();
    match matcher {
        None | Some("") | Some("*") => true,
        Some(m) if m.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|') => {
            m.split('|').any(|exact| names.contains(&exact))
        }
        Some(m) => match regex::Regex::new(m) {
            Ok(regex) => names.iter().any(|name| regex.is_match(name)),
            Err(_) => false,
        },
    }
}

/// The JavaScript hosts' rules, run under the real node.
const JS_RULES: &str = r#"
const queries = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const regex = (source, tool, invalid) => { let r; try { r = new RegExp(source); } catch { return invalid(); } return r.test(tool); };
const rules = {
  claude(m, t) {
    if (m === null || m === '' || m === '*') return true;
    if (/^[A-Za-z0-9_|, -]+$/.test(m)) {
      const aliases = { Agent: ['Task'] };
      return m.split(/[|,]/).map((n) => n.trim()).some((n) => n === t || (aliases[t] || []).includes(n));
    }
    return regex(m, t, () => false);
  },
  gemini(m, t) {
    if (m === null || m === '' || m === '*') return true;
    return regex(m, t, () => m === t);
  },
  copilot(m, t) {
    if (m === null) return true;
    return regex('^(?:' + m + ')$', t, () => false);
  },
  cursor(m, t) {
    if (m === null || m === '') return true;
    return regex(m, t, () => false);
  },
};
process.stdout.write(JSON.stringify(queries.map(([host, m, t]) => rules[host](m, t))));
"#;

/// Whether each `(host, matcher, tool name)` matches under that host's own rule: Codex in process, the
/// others in one node process.
fn host_matches(queries: &[(Target, Option<String>, String)]) -> Vec<bool> {
    let js: Vec<(usize, serde_json::Value)> = queries
        .iter()
        .enumerate()
        .filter(|(_, (host, _, _))| *host != Target::Codex)
        .map(|(i, (host, matcher, tool))| (i, serde_json::json!([host.name(), matcher, tool])))
        .collect();
    let mut answers: Vec<bool> = queries
        .iter()
        .map(|(host, matcher, tool)| *host == Target::Codex && codex_matches(matcher.as_deref(), tool))
        .collect();
    if js.is_empty() {
        return answers;
    }
    common::require_node();
    let mut child = Command::new("node")
        .args(["-e", JS_RULES])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs");
    let input = serde_json::to_vec(&js.iter().map(|(_, q)| q).collect::<Vec<_>>()).unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "node: {}", String::from_utf8_lossy(&output.stderr));
    let results: Vec<bool> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(results.len(), js.len());
    for ((i, _), result) in js.iter().zip(results) {
        answers[*i] = result;
    }
    answers
}

// ---------------------------------------------------------------------------------------------
// Real tool names

/// The tool names each host's recorded envelopes carry (`tool_name`, `toolName` at the top level).
fn recorded_tool_names() -> BTreeMap<Target, BTreeSet<String>> {
    let mut names: BTreeMap<Target, BTreeSet<String>> = BTreeMap::new();
    for recorded in common::recorded_envelopes() {
        let envelope: serde_json::Value = serde_json::from_slice(&recorded.bytes).unwrap();
        let name = envelope.get("tool_name").or_else(|| envelope.get("toolName")).and_then(|n| n.as_str());
        if let Some(name) = name {
            names.entry(recorded.host).or_default().insert(name.to_string());
        }
    }
    names
}

/// The recorded names read from one envelopes folder (its top-level `*.json` files).
fn tool_names_in(folder: &std::path::Path) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let Ok(envelope) = serde_json::from_slice::<serde_json::Value>(&std::fs::read(&path).unwrap()) else {
            continue;
        };
        let name = envelope.get("tool_name").or_else(|| envelope.get("toolName")).and_then(|n| n.as_str());
        names.extend(name.map(str::to_string));
    }
    names
}

/// The tool names each host is tested against: the recorded ones, the plain names of its host table,
/// and names the host specs document (MCP tools of two servers, a dotted name no host reports, tools
/// the canonical selectors leave out).
fn tool_names() -> BTreeMap<Target, Vec<String>> {
    let recorded = recorded_tool_names();
    let documented: &[(Target, &[&str])] = &[
        (
            Target::Claude,
            &["mcp__github__create_issue", "mcp__githubx__a", "mcp__demo.echo", "mcp__demoXecho", "Agent", "WebSearch"],
        ),
        (Target::Codex, &["mcp__github__create_issue", "mcp__githubx__a", "spawn_agent", "view_image"]),
        (Target::Copilot, &["github-create_issue", "githubx-a", "read_bash", "grep"]),
        (Target::Cursor, &["MCP:github_create_issue", "MCP:search", "StrReplace", "Delete"]),
        (Target::Gemini, &["mcp_github_create_issue", "mcp_githubx_a", "glob", "grep_search"]),
    ];
    let mut pools = BTreeMap::new();
    for (host, extra) in documented {
        let mut pool: Vec<String> = Vec::new();
        let table = agent_bundle::hosts::table(*host);
        let all = recorded
            .get(host)
            .into_iter()
            .flatten()
            .map(String::as_str)
            .chain(table.tool_names())
            .chain(extra.iter().copied())
            .chain(["Web.Search", "WebXSearch"]);
        for name in all {
            if !pool.iter().any(|n| n == name) {
                pool.push(name.to_string());
            }
        }
        pools.insert(*host, pool);
    }
    pools
}

#[test]
fn the_recorded_envelopes_name_the_tools_the_tests_match() {
    let recorded = recorded_tool_names();
    let expected: &[(Target, &[&str])] = &[
        (Target::Claude, &["Bash"]),
        (Target::Codex, &["Bash"]),
        (Target::Copilot, &["bash", "echo", "harness-echo", "harness/echo", "task", "view"]),
        (Target::Gemini, &["complete_task", "invoke_agent", "mcp_harness_echo", "read_file", "run_shell_command"]),
    ];
    for (host, names) in expected {
        let found: Vec<&str> = recorded[host].iter().map(String::as_str).collect();
        assert_eq!(found, *names, "{host}");
    }
    // testdata/envelopes is the repository's copy of the spec's recordings; where the spec folder sits
    // beside the checkout (../shared), both name the same tools.
    let shared = std::path::Path::new("../shared/envelopes");
    if shared.is_dir() {
        for host in HOSTS {
            let Some(folder) = envelope_folder(host) else { continue };
            assert_eq!(
                tool_names_in(&shared.join(folder)),
                recorded.get(&host).cloned().unwrap_or_default(),
                "{folder}: testdata/envelopes differs from ../shared/envelopes"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Every form on every host

/// A selector form on a host and the tool names (of [`tool_names`]) it must match; every other name
/// of the host must not match.
struct Form {
    host: Target,
    tools: &'static [&'static str],
    matches: &'static [&'static str],
}

const fn form(host: Target, tools: &'static [&'static str], matches: &'static [&'static str]) -> Form {
    Form { host, tools, matches }
}

const FORMS: &[Form] = &[
    // Claude Code.
    form(Target::Claude, &["shell"], &["Bash", "PowerShell"]),
    form(Target::Claude, &["file.read"], &["Read", "Glob", "Grep"]),
    form(Target::Claude, &["file.write"], &["Write", "Edit", "MultiEdit", "NotebookEdit"]),
    form(
        Target::Claude,
        &["mcp"],
        &["mcp__github__create_issue", "mcp__githubx__a", "mcp__demo.echo", "mcp__demoXecho"],
    ),
    form(Target::Claude, &["claude:mcp__github__*"], &["mcp__github__create_issue"]),
    form(Target::Claude, &["claude:mcp__github__.*"], &["mcp__github__create_issue"]),
    form(Target::Claude, &["claude:mcp__*__create_issue"], &["mcp__github__create_issue"]),
    form(Target::Claude, &["claude:mcp__demo.echo"], &["mcp__demo.echo"]),
    form(Target::Claude, &["claude:Web.Search"], &["Web.Search"]),
    form(Target::Claude, &["claude:Agent"], &["Agent"]),
    form(
        Target::Claude,
        &["shell", "claude:mcp__github__.*", "claude:WebSearch"],
        &["Bash", "PowerShell", "mcp__github__create_issue", "WebSearch"],
    ),
    // Codex: `Write` and `Edit` are aliases of apply_patch, `Agent` of spawn_agent.
    form(Target::Codex, &["shell"], &["Bash"]),
    form(Target::Codex, &["file.write"], &["apply_patch", "Edit", "Write"]),
    form(Target::Codex, &["mcp"], &["mcp__github__create_issue", "mcp__githubx__a"]),
    form(Target::Codex, &["codex:mcp__github__*"], &["mcp__github__create_issue"]),
    form(Target::Codex, &["codex:mcp__github__.*"], &["mcp__github__create_issue"]),
    form(Target::Codex, &["codex:Edit"], &["Edit", "apply_patch"]),
    form(Target::Codex, &["codex:spawn_agent"], &["spawn_agent"]),
    form(Target::Codex, &["codex:Web.Search"], &["Web.Search"]),
    form(
        Target::Codex,
        &["shell", "codex:mcp__github__.*", "codex:view_image"],
        &["Bash", "mcp__github__create_issue", "view_image"],
    ),
    // Copilot CLI: MCP tools are `<server>-<tool>` (`harness-echo` recorded).
    form(Target::Copilot, &["shell"], &["bash", "powershell"]),
    form(Target::Copilot, &["file.read"], &["view"]),
    form(Target::Copilot, &["file.write"], &["create", "edit", "str_replace_editor", "apply_patch"]),
    form(Target::Copilot, &["mcp"], &["harness-echo", "github-create_issue", "githubx-a"]),
    form(Target::Copilot, &["agent"], &["task"]),
    form(Target::Copilot, &["copilot:harness-*"], &["harness-echo"]),
    form(Target::Copilot, &["copilot:github-.*"], &["github-create_issue"]),
    form(Target::Copilot, &["copilot:Web.Search"], &["Web.Search"]),
    form(
        Target::Copilot,
        &["shell", "copilot:harness-.*", "copilot:grep"],
        &["bash", "powershell", "harness-echo", "grep"],
    ),
    // Cursor: MCP tools are `MCP:<tool>`.
    form(Target::Cursor, &["shell"], &["Shell"]),
    form(Target::Cursor, &["file.read"], &["Read"]),
    form(Target::Cursor, &["file.write"], &["Write"]),
    form(Target::Cursor, &["mcp"], &["MCP:github_create_issue", "MCP:search"]),
    form(Target::Cursor, &["agent"], &["Task"]),
    form(Target::Cursor, &["cursor:MCP:github_*"], &["MCP:github_create_issue"]),
    form(Target::Cursor, &["cursor:MCP:.*"], &["MCP:github_create_issue", "MCP:search"]),
    form(Target::Cursor, &["cursor:Web.Search"], &["Web.Search"]),
    form(Target::Cursor, &["file.write", "cursor:StrReplace", "cursor:Delete"], &["Write", "StrReplace", "Delete"]),
    // Gemini CLI: MCP tools are `mcp_<server>_<tool>` (`mcp_harness_echo` recorded).
    form(Target::Gemini, &["shell"], &["run_shell_command"]),
    form(Target::Gemini, &["file.read"], &["read_file"]),
    form(Target::Gemini, &["file.write"], &["write_file", "replace"]),
    form(Target::Gemini, &["mcp"], &["mcp_harness_echo", "mcp_github_create_issue", "mcp_githubx_a"]),
    form(Target::Gemini, &["agent"], &["invoke_agent"]),
    form(Target::Gemini, &["gemini:mcp_harness_*"], &["mcp_harness_echo"]),
    form(Target::Gemini, &["gemini:mcp_github_.*"], &["mcp_github_create_issue"]),
    form(Target::Gemini, &["gemini:complete_task"], &["complete_task"]),
    form(Target::Gemini, &["gemini:Web.Search"], &["Web.Search"]),
    form(
        Target::Gemini,
        &["shell", "gemini:mcp_harness_.*", "gemini:glob"],
        &["run_shell_command", "mcp_harness_echo", "glob"],
    ),
];

#[test]
fn every_selector_form_matches_exactly_its_tools_under_each_hosts_own_rule() {
    let pools = tool_names();
    for host in HOSTS {
        assert!(FORMS.iter().any(|f| f.host == host), "no forms for {host}");
    }
    let entries: Vec<Entry> = FORMS.iter().map(|f| Entry::on(f.host, f.tools)).collect();
    let compiled = compile(&entries);
    let mut queries = Vec::new();
    let mut asked = Vec::new();
    for (form, result) in FORMS.iter().zip(&compiled) {
        let matcher = match result {
            Ok(matchers) => matchers[&form.host].clone(),
            Err(errors) => panic!("{} {:?} does not compile: {errors:#?}", form.host, form.tools),
        };
        assert!(matcher.is_some(), "{} {:?}: a selector gives a matcher", form.host, form.tools);
        let pool = &pools[&form.host];
        for name in form.matches {
            assert!(pool.iter().any(|n| n == name), "{}: {name} is not among the tested tool names", form.host);
        }
        for name in pool {
            queries.push((form.host, matcher.clone(), name.clone()));
            asked.push((form, name, form.matches.contains(&name.as_str())));
        }
    }
    let answers = host_matches(&queries);
    let wrong: Vec<String> = asked
        .iter()
        .zip(&queries)
        .zip(&answers)
        .filter(|(((_, _, expected), _), answer)| expected != *answer)
        .map(|(((form, name, expected), (_, matcher, _)), _)| {
            let should = if *expected { "should match" } else { "should not match" };
            format!(
                "{} {:?} → {:?} {should} {name}",
                form.host,
                form.tools,
                matcher.as_deref().unwrap_or("(every tool)")
            )
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn unmapped_canonical_selectors_are_errors_not_empty_matchers() {
    let cases = [(Target::Claude, "agent"), (Target::Codex, "file.read"), (Target::Codex, "agent")];
    let entries: Vec<Entry> = cases.iter().map(|(host, tool)| Entry::on(*host, &[tool])).collect();
    for ((host, tool), result) in cases.iter().zip(compile(&entries)) {
        let errors = result.expect_err(&format!("{host} {tool} is unmapped"));
        assert_eq!(errors[0].code, Code::SelectorUnmapped, "{host} {tool}");
    }
}

#[test]
fn a_lone_wildcard_beside_canonical_selectors_of_several_hosts_means_every_tool_on_its_host() {
    let entry = Entry { targets: vec![Target::Claude, Target::Codex], tools: vec!["shell".into(), "claude:*".into()] };
    let compiled = compile(&[entry]).remove(0).expect("compiles");
    let pools = tool_names();
    let queries: Vec<(Target, Option<String>, String)> = [Target::Claude, Target::Codex]
        .into_iter()
        .flat_map(|host| pools[&host].iter().map(move |name| (host, name.clone())))
        .map(|(host, name)| (host, compiled[&host].clone(), name))
        .collect();
    for ((host, matcher, name), matched) in queries.iter().zip(host_matches(&queries)) {
        let expected = *host == Target::Claude || name == "Bash";
        assert_eq!(matched, expected, "{host} {matcher:?} {name}");
    }
}

/// Selectors that cannot mean what they say, with the code and a piece of the hint each must get.
const REFUSED: &[(Target, &str, Code, &str)] = &[
    (Target::Claude, "claude:bash", Code::NativeSelectorCase, "did you mean 'claude:Bash'?"),
    (Target::Claude, "claude:MCP__github__*", Code::NativeSelectorCase, "did you mean 'claude:mcp__github__*'?"),
    (Target::Claude, "claude:Bash|Read", Code::NativeSelectorRegex, "'claude:Bash', 'claude:Read'"),
    (Target::Claude, "claude:mcp__github__.+", Code::NativeSelectorRegex, "write 'claude:mcp__github__*'"),
    (Target::Claude, "claude:^Bash$", Code::NativeSelectorRegex, "write 'claude:Bash'"),
    (Target::Claude, "claude:Edit,Write", Code::NativeSelectorRegex, "'claude:Edit', 'claude:Write'"),
    (Target::Claude, "claude:*", Code::NativeSelectorOnlyWildcard, "leave `tools` out"),
    (Target::Claude, "claude:", Code::InvalidSelector, "such as 'claude:Bash'"),
    (Target::Codex, "codex:bash", Code::NativeSelectorCase, "did you mean 'codex:Bash'?"),
    (Target::Codex, "codex:.*", Code::NativeSelectorOnlyWildcard, "leave `tools` out"),
    (Target::Codex, "codex:Web_Search", Code::HostedToolSelector, "remove this selector"),
    (Target::Copilot, "copilot:Bash", Code::NativeSelectorCase, "did you mean 'copilot:bash'?"),
    (Target::Copilot, "copilot:[^-]+-.+", Code::NativeSelectorRegex, "a pattern with `*`"),
    (Target::Cursor, "cursor:shell", Code::NativeSelectorCase, "did you mean 'cursor:Shell'?"),
    (Target::Cursor, "cursor:mcp:search", Code::NativeSelectorCase, "did you mean 'cursor:MCP:search'?"),
    (Target::Gemini, "gemini:Read_File", Code::NativeSelectorCase, "did you mean 'gemini:read_file'?"),
    (Target::Gemini, "gemini:**", Code::NativeSelectorOnlyWildcard, "leave `tools` out"),
];

#[test]
fn a_selector_that_cannot_mean_what_it_says_is_an_error_naming_it_with_a_hint() {
    let entries: Vec<Entry> = REFUSED.iter().map(|(host, tool, _, _)| Entry::on(*host, &[tool])).collect();
    for ((host, tool, code, hint), result) in REFUSED.iter().zip(compile(&entries)) {
        let errors = result.expect_err(&format!("{tool} on {host} is refused"));
        assert_eq!(errors.len(), 1, "{tool}: {errors:#?}");
        let error = &errors[0];
        assert_eq!(error.code, *code, "{tool}: {}", error.message);
        assert!(error.message.contains(&format!("`{tool}")), "{tool}: the message names it: {}", error.message);
        let given = error.hint.as_deref().unwrap_or_default();
        assert!(given.contains(hint), "{tool}: hint {given:?} lacks {hint:?}");
    }
    // Beside another native selector of its host, a lone wildcard swallows it.
    let entry = Entry {
        targets: vec![Target::Claude, Target::Codex],
        tools: vec!["claude:WebSearch".into(), "claude:*".into()],
    };
    let errors = compile(&[entry]).remove(0).expect_err("refused");
    assert_eq!(errors[0].code, Code::NativeSelectorOnlyWildcard);
    assert!(errors[0].message.contains("`claude:WebSearch` selects nothing"), "{}", errors[0].message);
}

// ---------------------------------------------------------------------------------------------
// No accepted selector can be dead

const LETTERS: &[&str] = &[
    "a", "b", "e", "h", "m", "p", "s", "x", "B", "E", "M", "R", "W", "0", "7", "_", "__", "-", "mcp", "mcp__", "Bash",
    "read",
];

/// A random native name of letters, digits, `_`, `-`, `.`, `*` and `.*`.
fn random_name(random: &mut Random) -> String {
    let mut name = String::new();
    for _ in 0..1 + random.below(7) {
        let piece = match random.below(10) {
            0..=4 => random.pick(LETTERS),
            5 | 6 => ".",
            7 => "*",
            _ => ".*",
        };
        name.push_str(piece);
    }
    name
}

/// The name as the documented rule reads it (README, Native selectors): `*` and `.*` are the wildcard,
/// anything else literal. `None` for a wildcard, `Some(text)` for literal text.
fn read_name(name: &str) -> Vec<Option<String>> {
    let mut parts: Vec<Option<String>> = Vec::new();
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        let wildcard = c == '*' || (c == '.' && chars.peek() == Some(&'*'));
        if wildcard {
            if c == '.' {
                chars.next();
            }
            if parts.last() != Some(&None) {
                parts.push(None);
            }
        } else {
            match parts.last_mut() {
                Some(Some(text)) => text.push(c),
                _ => parts.push(Some(c.to_string())),
            }
        }
    }
    parts
}

/// A concrete tool name the name describes: each wildcard replaced by a sample run of characters.
fn concrete(parts: &[Option<String>], random: &mut Random) -> String {
    const RUN: &[&str] = &["", "x", "create_issue", "Q9", "a.b", "-", "github__search"];
    parts.iter().map(|part| part.clone().unwrap_or_else(|| random.pick(RUN).to_string())).collect()
}

#[test]
fn every_accepted_native_name_matches_a_tool_it_describes_and_every_refused_one_says_why() {
    // `SELECTORS_SEED` picks another run.
    let seed = std::env::var("SELECTORS_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_0d13_u64);
    let mut random = Random(seed);
    const PER_HOST: usize = 120;
    let mut entries = Vec::new();
    let mut names = Vec::new();
    for host in HOSTS {
        let mut seen = BTreeSet::new();
        while seen.len() < PER_HOST {
            let name = random_name(&mut random);
            if seen.insert(name.clone()) {
                entries.push(Entry::on(host, &[&format!("{host}:{name}")]));
                names.push((host, name));
            }
        }
    }
    let compiled = compile(&entries);

    let mut queries = Vec::new();
    let mut expected = Vec::new();
    let (mut accepted, mut refused) = (0, 0);
    for ((host, name), result) in names.iter().zip(&compiled) {
        let parts = read_name(name);
        let only_wildcard = parts == [None];
        match result {
            Ok(matchers) => {
                accepted += 1;
                assert!(!only_wildcard, "{host}:{name} is only a wildcard on a hook of {host} alone, yet accepted");
                let matcher = matchers[host].clone();
                assert!(matcher.is_some(), "{host}:{name} gives no matcher");
                for _ in 0..3 {
                    queries.push((*host, matcher.clone(), concrete(&parts, &mut random)));
                    expected.push((name, true));
                }
                // Anchored: more text before or after a name that does not start or end with a
                // wildcard is another tool.
                let sample = concrete(&parts, &mut random);
                if parts.last().is_some_and(Option::is_some) {
                    queries.push((*host, matcher.clone(), format!("{sample}Z")));
                    expected.push((name, false));
                }
                if parts.first().is_some_and(Option::is_some) {
                    queries.push((*host, matcher.clone(), format!("Z{sample}")));
                    expected.push((name, false));
                }
            }
            Err(errors) => {
                refused += 1;
                let error = &errors[0];
                let allowed = [Code::NativeSelectorOnlyWildcard, Code::NativeSelectorCase, Code::HostedToolSelector];
                assert!(allowed.contains(&error.code), "{host}:{name}: unexpected {}: {}", error.code, error.message);
                if only_wildcard {
                    assert_eq!(error.code, Code::NativeSelectorOnlyWildcard, "{host}:{name}");
                }
                assert!(error.message.contains(&format!("`{host}:{name}`")), "{host}:{name}: {}", error.message);
                assert!(error.hint.as_deref().is_some_and(|h| !h.is_empty()), "{host}:{name}: no hint");
            }
        }
    }
    assert!(accepted > PER_HOST * 3, "most random names are accepted ({accepted})");
    assert!(refused > 0, "some random names are only wildcards and refused");
    let answers = host_matches(&queries);
    let wrong: Vec<String> = queries
        .iter()
        .zip(&expected)
        .zip(&answers)
        .filter(|((_, (_, want)), got)| want != *got)
        .map(|(((host, matcher, tool), (name, want)), _)| {
            let should = if *want { "should match" } else { "should not match" };
            format!("{host}:{name} → {matcher:?} {should} {tool}")
        })
        .collect();
    assert!(wrong.is_empty(), "seed {seed}:\n{}", wrong.join("\n"));
}

/// The artifact's host documents carry the plan's matchers: what the hosts read is what was tested.
#[test]
fn the_emitted_document_carries_the_planned_matcher() {
    let root = common::sandbox_dir("selectors-build");
    std::fs::create_dir_all(root.join("src/hooks")).unwrap();
    std::fs::write(root.join("src/hooks/guard.ts"), "export default () => undefined;\n").unwrap();
    std::fs::write(
        root.join("agent-bundle.config.ts"),
        "export default {\n  targets: ['claude'],\n  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['claude:mcp__github__.*'] } },\n};\n",
    )
    .unwrap();
    let (_guard, artifact) = common::build_root(&root);
    let document = std::fs::read_to_string(artifact.join("hooks/hooks.json")).unwrap();
    assert!(document.contains(r#""matcher": "^(?:mcp__github__.*)$""#), "{document}");
    let _ = std::fs::remove_dir_all(&root);
}

/// A route's `export const config = { tools }` is judged and compiled by the same rules.
#[test]
fn a_routes_native_selectors_follow_the_same_rules() {
    let route = |tools: &str| {
        let root = common::sandbox_dir("selectors-route");
        std::fs::create_dir_all(root.join("src/events/tool")).unwrap();
        std::fs::write(root.join("agent-bundle.config.ts"), "export default { targets: ['claude'] };\n").unwrap();
        std::fs::write(
            root.join("src/events/tool/before.tsx"),
            format!(
                "export const config = {{ targets: ['claude'], tools: {tools} }};\n\
                 export default async function Guard() {{\n  return null;\n}}\n"
            ),
        )
        .unwrap();
        let loaded = agent_bundle::pipeline::load(&root, &RealDisk);
        let _ = std::fs::remove_dir_all(&root);
        loaded
    };
    let loaded = route("['claude:mcp__github__.*']");
    assert!(!loaded.has_errors(), "{:#?}", loaded.diagnostics);
    let plans = &loaded.bundle.unwrap().plans;
    let matcher = match &plans[0].targets[0].delivery {
        Delivery::Native { matcher, .. } => matcher.clone(),
        Delivery::Absent { reason } => panic!("{reason}"),
    };
    assert_eq!(matcher.as_deref(), Some("^(?:mcp__github__.*)$"));
    let answers = host_matches(&[
        (Target::Claude, matcher.clone(), "mcp__github__create_issue".into()),
        (Target::Claude, matcher, "mcp__githubx__a".into()),
    ]);
    assert_eq!(answers, [true, false]);

    let loaded = route("['claude:bash']");
    let codes: Vec<Code> = loaded.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect();
    assert_eq!(codes, [Code::NativeSelectorCase], "{:#?}", loaded.diagnostics);
}

/// `onMissingSelector`: by default a selector a host lacks fails the build (AB4230, labelled at that
/// selector, not at the first of the list); `skip-host` leaves the host out and `skip-selector` gives
/// it the hook with the selectors it has; either way the build summary (also of a no-op rebuild) and
/// `inspect` say so, and the hosts that have every selector get the hook unchanged.
#[test]
fn a_selector_one_host_lacks_fails_or_skips_as_the_entry_chooses() {
    let config = |choice: &str| {
        format!(
            "export default {{\n  hooks: {{ beforeTool: {{ handler: './guard.ts', tools: ['shell', 'file.read']{choice} }} }},\n  plugin: {{ name: 'skips', description: 'Skips.', version: '1.0.0', author: 'agent-bundle tests' }},\n  targets: ['claude', 'codex'],\n}};\n"
        )
    };
    let build = |choice: &str| {
        let root = tempfile::tempdir().unwrap();
        common::write_file(root.path(), "agent-bundle.config.ts", &config(choice));
        common::write_file(root.path(), "guard.ts", "export default () => undefined;\n");
        let cache = root.path().join("cache");
        let run = || {
            common::cli()
                .current_dir(root.path())
                .env("AGENT_BUNDLE_CACHE_DIR", &cache)
                .args(["agent-bundle", "build", "--json"])
                .output()
                .unwrap()
        };
        let first = run();
        let summary = || {
            let output = common::cli()
                .current_dir(root.path())
                .env("AGENT_BUNDLE_CACHE_DIR", &cache)
                .args(["agent-bundle", "build"])
                .output()
                .unwrap();
            String::from_utf8_lossy(&output.stdout).into_owned()
        };
        let inspect =
            common::cli().current_dir(root.path()).args(["agent-bundle", "inspect", "--hooks"]).output().unwrap();
        let summary = summary();
        (root, first, summary, String::from_utf8_lossy(&inspect.stdout).into_owned())
    };

    let (_root, failed, _, _) = build("");
    assert!(!failed.status.success());
    let document: serde_json::Value = serde_json::from_slice(&failed.stdout).unwrap();
    let diagnostic = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "AB4230")
        .unwrap_or_else(|| panic!("AB4230: {document}"));
    let secondary = diagnostic["labels"].as_array().unwrap().iter().find(|l| l["message"] != "in this hook");
    let column = secondary.and_then(|l| l["column"].as_u64()).unwrap_or_else(|| panic!("{diagnostic}"));
    let line = config("").lines().nth(1).unwrap().to_string();
    assert_eq!(column as usize, line.find("'file.read'").unwrap() + 1, "the label is on `file.read`: {diagnostic}");

    let matcher_of = |root: &std::path::Path, host: &str| -> Option<String> {
        let manifest: serde_json::Value =
            serde_json::from_slice(&std::fs::read(root.join("artifact/agent-bundle.manifest.json")).unwrap()).unwrap();
        let row = manifest["hooks"].as_array().unwrap().iter().find(|r| r["host"] == host)?;
        Some(row["matcher"].as_str().unwrap().to_string())
    };
    let (root, built, summary, inspect) = build(", onMissingSelector: 'skip-host'");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    assert_eq!(matcher_of(root.path(), "codex"), None, "codex is left out");
    assert!(matcher_of(root.path(), "claude").unwrap().contains("Read"), "claude keeps every selector");
    assert!(
        summary.contains("on codex: skipped (onMissingSelector: 'skip-host')"),
        "the no-op summary says so: {summary}"
    );
    assert!(inspect.contains("not delivered: skipped (onMissingSelector: 'skip-host')"), "{inspect}");

    let (root, built, summary, inspect) = build(", onMissingSelector: 'skip-selector'");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    assert_eq!(matcher_of(root.path(), "codex").as_deref(), Some("^(?:Bash)$"), "codex gets the shell part");
    assert!(matcher_of(root.path(), "claude").unwrap().contains("Read"), "claude keeps every selector");
    assert!(summary.contains("on codex: without `file.read`"), "the no-op summary says so: {summary}");
    assert!(inspect.contains("without `file.read`"), "{inspect}");
}
