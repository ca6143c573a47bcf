//! Building a bundle from a package's `build.rs`:
//!
//! ```ignore
//! // build.rs
//! fn main() {
//!     agent_bundle::build_script().run_or_exit();
//! }
//! ```
//!
//! It builds the package's bundle (its folder, or `.root(…)`) into `$OUT_DIR/agent-bundle/artifact`
//! (or `.output(…)`), tells cargo to rerun when any
//! input it read changes, turns warnings into `cargo:warning=` lines and errors into a failed build,
//! and exports the artifact's path to the crate as `AGENT_BUNDLE_ARTIFACT`.

use camino::{Utf8Path, Utf8PathBuf};

use crate::diagnostic::{Diagnostic, Severity};
use crate::driver::{BuildOptions, BuildReport, build};
use crate::io::RealDisk;
use crate::vocabulary::target::Target;

/// Starts configuring a build from `build.rs`.
pub fn build_script() -> BuildScript {
    BuildScript::default()
}

#[derive(Clone, Debug, Default)]
pub struct BuildScript {
    root: Option<Utf8PathBuf>,
    output: Option<Utf8PathBuf>,
    targets: Vec<Target>,
}

impl BuildScript {
    /// The bundle folder, relative to the package (default: the package folder).
    pub fn root(mut self, root: impl Into<Utf8PathBuf>) -> Self {
        self.root = Some(root.into());
        self
    }

    /// Where to write the artifact (default: `$OUT_DIR/agent-bundle/artifact`).
    pub fn output(mut self, output: impl Into<Utf8PathBuf>) -> Self {
        self.output = Some(output.into());
        self
    }

    /// Build only for this host (repeatable); narrows the config's targets.
    pub fn target(mut self, target: Target) -> Self {
        self.targets.push(target);
        self
    }

    /// Builds, printing cargo instructions on stdout. Returns the report, or the error lines.
    pub fn run(self) -> Result<BuildReport, Vec<String>> {
        let package = env_path("CARGO_MANIFEST_DIR").unwrap_or_else(|| Utf8PathBuf::from("."));
        let root = match &self.root {
            Some(root) => crate::io::lexical_join(&package, root.as_str()),
            None => package.clone(),
        };
        let output = self.output.clone().unwrap_or_else(|| {
            env_path("OUT_DIR").unwrap_or_else(|| package.join("target")).join("agent-bundle/artifact")
        });
        let options = BuildOptions {
            root: root.clone(),
            output: Some(output.clone()),
            targets: self.targets,
            ..Default::default()
        };
        let report = build(&options, &RealDisk).map_err(|e| vec![e.to_string()])?;
        for input in rerun_inputs(&root, &report) {
            println!("cargo:rerun-if-changed={input}");
        }
        let mut errors = Vec::new();
        for diagnostic in report.diagnostics() {
            let line = one_line(diagnostic);
            match diagnostic.severity {
                Severity::Warning => println!("cargo:warning={line}"),
                Severity::Error => errors.push(line),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        println!("cargo:rustc-env=AGENT_BUNDLE_ARTIFACT={output}");
        Ok(report)
    }

    /// [`run`](Self::run), and on errors print them (cargo shows a failed build script's output) and
    /// exit 1.
    pub fn run_or_exit(self) -> BuildReport {
        match self.run() {
            Ok(report) => report,
            Err(errors) => {
                for error in &errors {
                    eprintln!("error: {error}");
                }
                std::process::exit(1);
            }
        }
    }
}

fn env_path(name: &str) -> Option<Utf8PathBuf> {
    std::env::var(name).ok().map(Utf8PathBuf::from)
}

fn one_line(diagnostic: &Diagnostic) -> String {
    let at = diagnostic.primary_location().map(|l| format!("{l}: ")).unwrap_or_default();
    let hint = diagnostic.hint.as_deref().map(|h| format!(" (hint: {h})")).unwrap_or_default();
    format!("{at}{}[{}]: {}{hint}", diagnostic.severity.as_str(), diagnostic.code, diagnostic.message)
}

/// Every input the build read that exists: the config, package.json, each handler and module it
/// imports and payload files; the whole bundle folder when the build failed before knowing them.
fn rerun_inputs(root: &Utf8Path, report: &BuildReport) -> Vec<Utf8PathBuf> {
    let mut inputs: std::collections::BTreeSet<Utf8PathBuf> = report.inputs.iter().cloned().collect();
    if inputs.is_empty() {
        inputs.insert(root.to_path_buf());
    }
    inputs.into_iter().filter(|p| p.exists()).collect()
}
