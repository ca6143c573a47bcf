//! The matcher every host gets for every canonical selector (D5 in docs/decisions.md), as one reviewed table,
//! plus the page's selector rules run through the whole pipeline.

use std::fmt::Write as _;

use agent_bundle::pipeline::normalise::{Handler, Hook, NativeSelector, Timeout};
use agent_bundle::pipeline::plan::{Delivery, plan};
use agent_bundle::vocabulary::canonical::{CanonicalEvent, Selector};
use agent_bundle::vocabulary::source::{Location, Span};
use agent_bundle::vocabulary::target::Target;

fn hook(targets: &[Target], tools: &[Selector], native_tools: &[NativeSelector]) -> Hook {
    let at = Location { file: "agent-bundle.config.ts".into(), line: 1, column: 1, span: Span::default() };
    Hook {
        name: "before-tool-guard-00000000".into(),
        id: "hook:before-tool:guard:00000000".into(),
        event: CanonicalEvent::BeforeTool.into(),
        handler: Handler::Module { path: "src/hooks/guard.ts".into() },
        targets: targets.to_vec(),
        targets_declared: true,
        tools: tools.to_vec(),
        native_tools: native_tools.to_vec(),
        mcp_tools: Vec::new(),
        timeout: Timeout::HostDefault,
        args: Vec::new(),
        fail_closed: false,
        fail_closed_at: None,
        max_input_bytes: None,
        sources: Vec::new(),
        budget_ms: None,
        budget_at: None,
        shared: None,
        declared_at: at.clone(),
        tools_at: Some(at),
        selector_at: Vec::new(),
        on_missing_selector: Default::default(),
        run_async: false,
        status_message: None,
        identity: String::new(),
    }
}

fn cell(target: Target, tools: &[Selector], native: &[NativeSelector]) -> String {
    let agent_bundle::diagnostic::Staged { value: plans, diagnostics } = plan(&[hook(&[target], tools, native)]);
    if let Some(diagnostic) = diagnostics.first() {
        return format!("{} (no mapping)", diagnostic.code);
    }
    match &plans[0].targets[0].delivery {
        Delivery::Native { matcher, .. } => matcher.clone().unwrap_or_else(|| "(every tool)".into()),
        Delivery::Absent { reason } => format!("absent: {reason}"),
    }
}

#[test]
fn matcher_table_per_host_and_selector() {
    let hosts = [Target::Claude, Target::Codex, Target::Cursor];
    let mut table = String::new();
    let mut rows: Vec<(String, Vec<Selector>, Vec<NativeSelector>)> =
        Selector::ALL.iter().map(|s| (s.name().to_string(), vec![*s], vec![])).collect();
    rows.push(("(none)".into(), vec![], vec![]));
    rows.push(("file.write + shell".into(), vec![Selector::FileWrite, Selector::Shell], vec![]));
    for host in hosts {
        let native = NativeSelector { target: host, name: "Web.Search".into() };
        rows.push((format!("shell + {host}:Web.Search"), vec![Selector::Shell], vec![native]));
    }
    for (label, tools, native) in rows {
        for host in hosts {
            let _ = writeln!(table, "{label:<28} {host:<7} {}", cell(host, &tools, &native));
        }
    }
    insta::assert_snapshot!(table);
}

#[test]
fn native_selectors_of_other_hosts_do_not_leak_into_a_hosts_matcher() {
    let native = [NativeSelector { target: Target::Claude, name: "WebSearch".into() }];
    let agent_bundle::diagnostic::Staged { value: plans, diagnostics } =
        plan(&[hook(&[Target::Claude, Target::Cursor], &[Selector::Shell], &native)]);
    assert!(diagnostics.is_empty());
    let matchers: Vec<_> = plans[0]
        .targets
        .iter()
        .map(|t| match &t.delivery {
            Delivery::Native { matcher, .. } => matcher.clone().unwrap(),
            Delivery::Absent { .. } => unreachable!(),
        })
        .collect();
    assert_eq!(matchers, ["^(?:Bash|PowerShell|WebSearch)$", "^(?:Shell)$"]);
}

#[test]
fn every_matcher_compiles_as_a_regex_and_matches_its_hosts_tool_names() {
    // The tool names each host really reports (recorded by the real-host suite and the hosts' docs); the matcher must accept exactly these.
    let cases: &[(Target, Selector, &[&str], &[&str])] = &[
        (Target::Claude, Selector::Shell, &["Bash", "PowerShell"], &["bash", "BashOutput", "Write"]),
        (Target::Claude, Selector::FileWrite, &["Write", "Edit", "NotebookEdit"], &["Read", "WriteFile"]),
        (Target::Claude, Selector::Mcp, &["mcp__demo__echo"], &["Bash", "xmcp__a"]),
        (Target::Codex, Selector::Shell, &["Bash"], &["apply_patch", "Bashful"]),
        (Target::Codex, Selector::FileWrite, &["apply_patch"], &["Bash"]),
        (Target::Cursor, Selector::Mcp, &["MCP:search"], &["Shell"]),
        (Target::Cursor, Selector::Agent, &["Task"], &["TaskList"]),
    ];
    for (target, selector, yes, no) in cases {
        let matcher = cell(*target, &[*selector], &[]);
        let regex = regex::Regex::new(&matcher).unwrap_or_else(|e| panic!("{target} {selector}: {matcher}: {e}"));
        for name in *yes {
            assert!(regex.is_match(name), "{target} {selector}: {matcher} should match {name}");
        }
        for name in *no {
            assert!(!regex.is_match(name), "{target} {selector}: {matcher} should not match {name}");
        }
    }
}

#[test]
fn the_readme_carries_the_generated_event_and_hook_matrix() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let start = readme.find("<!-- matrix:start -->\n").expect("README has the matrix markers")
        + "<!-- matrix:start -->\n".len();
    let end = readme.find("<!-- matrix:end -->").unwrap();
    assert_eq!(
        &readme[start..end],
        agent_bundle::tools::matrix::markdown(),
        "README's matrix is stale: paste the output of `cargo agent-bundle matrix` between its markers"
    );
}
