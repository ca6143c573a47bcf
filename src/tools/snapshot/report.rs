//! Presenting a snapshot run: plain text for terminals, Markdown for pull-request comments and
//! `$GITHUB_STEP_SUMMARY`, JSON for tools, and GitHub annotations when running in GitHub Actions.

use std::fmt::Write as _;

use super::{SnapshotReport, Status};

fn status_word(status: Status) -> &'static str {
    match status {
        Status::Unchanged => "unchanged",
        Status::Changed => "changed",
        Status::New => "new",
        Status::Obsolete => "obsolete",
    }
}

pub fn text(report: &SnapshotReport) -> String {
    let mut out = String::new();
    for failure in &report.failures {
        let _ = writeln!(out, "error: {}: {}", failure.root, failure.message);
    }
    for snapshot in report.snapshots.iter().filter(|s| s.status != Status::Unchanged) {
        let _ = writeln!(out, "{} {}", status_word(snapshot.status), snapshot.path);
        for line in &snapshot.summary {
            let _ = writeln!(out, "  * {line}");
        }
        out.push_str(&snapshot.diff);
        if !snapshot.diff.ends_with('\n') && !snapshot.diff.is_empty() {
            out.push('\n');
        }
    }
    let unchanged = report.snapshots.len() - report.differences();
    let _ = writeln!(
        out,
        "{} snapshot{} checked: {unchanged} unchanged, {} differ; {} bundle{} failed to build",
        report.snapshots.len(),
        if report.snapshots.len() == 1 { "" } else { "s" },
        report.differences(),
        report.failures.len(),
        if report.failures.len() == 1 { "" } else { "s" },
    );
    out
}

pub fn markdown(report: &SnapshotReport) -> String {
    let mut out = String::from("## agent-bundle snapshots\n\n");
    if report.is_clean() {
        let _ = writeln!(out, "All {} snapshots match what the hosts will read.", report.snapshots.len());
        return out;
    }
    out.push_str("| snapshot | status | what changed |\n|---|---|---|\n");
    for failure in &report.failures {
        let _ = writeln!(
            out,
            "| `{}` | build failed | {} |",
            failure.root,
            escape(failure.message.lines().next().unwrap_or(""))
        );
    }
    for snapshot in report.snapshots.iter().filter(|s| s.status != Status::Unchanged) {
        let summary: Vec<String> = snapshot.summary.iter().map(|l| escape(l)).collect();
        let _ = writeln!(out, "| `{}` | {} | {} |", snapshot.path, status_word(snapshot.status), summary.join("<br>"));
    }
    for snapshot in report.snapshots.iter().filter(|s| s.status != Status::Unchanged) {
        let _ = write!(
            out,
            "\n<details><summary><code>{}</code></summary>\n\n```diff\n{}```\n\n</details>\n",
            snapshot.path, snapshot.diff
        );
    }
    out.push_str("\nReview locally with `cargo agent-bundle snapshot review`, or accept all with `cargo agent-bundle snapshot accept`.\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

pub fn json(report: &SnapshotReport) -> String {
    let value = serde_json::json!({
        "clean": report.is_clean(),
        "differences": report.differences(),
        "snapshots": report.snapshots,
        "failures": report.failures,
    });
    crate::vocabulary::json::pretty(&value)
}

/// `::error` workflow commands, one per difference, for GitHub Actions to show on the files.
pub fn github_annotations(report: &SnapshotReport) -> String {
    let mut out = String::new();
    for failure in &report.failures {
        let _ = writeln!(out, "::error title=agent-bundle snapshot::{} does not build", failure.root);
    }
    for snapshot in report.snapshots.iter().filter(|s| s.status != Status::Unchanged) {
        let message = snapshot.summary.join("%0A");
        let _ =
            writeln!(out, "::error file={},title=snapshot {}::{message}", snapshot.path, status_word(snapshot.status));
    }
    out
}
