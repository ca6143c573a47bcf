//! Judging one bundler run: what the bundler reported, what the bundle's own modules do that Node
//! would not run, and what packages the bundle cannot carry, each as a diagnostic at the importing
//! file's line with the hint that fits the case.

use std::collections::{BTreeMap, BTreeSet};

use camino::{Utf8Path, Utf8PathBuf};
use rolldown_common::ImportKind;
use rolldown_error::{
    BuildDiagnostic, DiagnosableArcstr, DiagnosableResolveError, DiagnosticOptions, EventKind, Severity,
};

use super::packages::{self, Package};
use super::plugin::{Failure, Unresolved, is_path_like};
use super::run::Run;
use super::scan::{ModuleScan, scan};
use super::{HandlerEntry, display_path};
use crate::diagnostic::messages::{self, MissingImport};
use crate::diagnostic::{Diagnostic, Label};
use crate::vocabulary::npm::in_node_modules;
use crate::vocabulary::source::{Location, SourceFile, Span};

/// Diagnostics of one bundle's build (all its handlers), and the sources they point into.
#[derive(Debug, Default)]
pub(super) struct Findings {
    pub diagnostics: Vec<Diagnostic>,
    pub sources: Vec<SourceFile>,
    /// By handler path: the payload fields its default export destructures, each where it is written.
    pub payload_reads: BTreeMap<String, Vec<(String, Span)>>,
    /// By module (absolute path): where the bundle's own module first reads stdin itself.
    pub stdin_reads: BTreeMap<String, Span>,
    /// By module (absolute path): the keys of a tool's native input it reads by name, each where.
    pub tool_input_reads: BTreeMap<String, Vec<(String, Span)>>,
}

/// The modules of one run, as sources and scans, by absolute path.
struct Modules<'r> {
    run: &'r Run,
    files: BTreeMap<&'r str, SourceFile>,
    scans: BTreeMap<&'r str, ModuleScan>,
    shown: BTreeSet<String>,
}

impl<'r> Modules<'r> {
    fn new(root: &'r Utf8Path, run: &'r Run) -> Self {
        let mut files = BTreeMap::new();
        let mut scans = BTreeMap::new();
        for (path, (_, text)) in &run.observed.modules {
            let shown = display_path(root, Utf8Path::new(path));
            files.insert(path.as_str(), SourceFile::new(shown.clone(), text.clone()));
            if !in_node_modules(path) {
                scans.insert(path.as_str(), scan(shown.as_str(), text));
            }
        }
        Modules { run, files, scans, shown: BTreeSet::new() }
    }

    /// The location of a span in a module, remembering that its source must be shown.
    fn locate(&mut self, path: &str, span: Span) -> Option<Location> {
        let file = self.files.get(path)?;
        self.shown.insert(path.to_string());
        Some(file.locate(span))
    }

    /// Where `importer` writes `specifier`: from the scan for the bundle's own modules, else the
    /// first quoted occurrence in its text.
    fn import_site(&mut self, importer: &str, specifier: &str) -> Option<Location> {
        let span = match self.scans.get(importer).and_then(|scan| scan.specifiers.get(specifier)) {
            Some(span) => *span,
            None => {
                let text = &self.files.get(importer)?.text;
                let start = ['\'', '"', '`'].iter().filter_map(|q| text.find(&format!("{q}{specifier}{q}"))).min()?;
                Span::new(start as u32, (start + specifier.len() + 2) as u32)
            }
        };
        self.locate(importer, span)
    }

    /// Where the bundle's own code first imports something in `package` (directly, or through the
    /// packages that import it), and the packages in between.
    fn package_site(&mut self, package: &Package) -> (Option<Location>, Vec<String>) {
        let mut targets: BTreeSet<String> = BTreeSet::from([package.dir.to_string()]);
        let mut chain = Vec::new();
        for _ in 0..16 {
            let edge = self
                .run
                .observed
                .resolved
                .iter()
                .find(|(_, _, _, id)| targets.iter().any(|dir| id.starts_with(&format!("{dir}/"))));
            let Some((importer, specifier, _, _)) = edge.cloned() else { break };
            if !in_node_modules(&importer) {
                return (self.import_site(&importer, &specifier), chain);
            }
            match packages::nearest_package(Utf8Path::new(&importer)) {
                Some(parent) if !targets.contains(parent.dir.as_str()) => {
                    chain.push(parent.name.clone());
                    targets = BTreeSet::from([parent.dir.to_string()]);
                }
                _ => break,
            }
        }
        (None, chain)
    }
}

pub(super) fn judge(root: &Utf8Path, handlers: &[HandlerEntry], run: &mut Run, external: &[String]) -> Findings {
    let errors = std::mem::take(&mut run.errors);
    let warnings = std::mem::take(&mut run.warnings);
    let run: &Run = run;
    let mut judging = Judging { root, run, handlers, external, modules: Modules::new(root, run), out: Vec::new() };
    let broken_files = judging.own_modules();
    let failed = !errors.is_empty();
    let mut reported = judging.bundler_reports(errors.into_iter().chain(warnings), &broken_files);
    judging.refused_modules();
    if failed {
        judging.unreported_bare_imports(&mut reported);
    }
    let judged_packages = judging.imported_files();
    judging.bundled_packages(judged_packages);
    judging.unlowered_decorators();
    judging.unfollowed_requires();
    judging.default_exports();
    judging.findings()
}

/// One run being judged: what it read and built, and the diagnostics found so far, in the order
/// they are found (a later check reads what an earlier one found).
struct Judging<'r> {
    root: &'r Utf8Path,
    run: &'r Run,
    handlers: &'r [HandlerEntry],
    external: &'r [String],
    modules: Modules<'r>,
    out: Vec<Diagnostic>,
}

impl Judging<'_> {
    /// The bundle's own modules: syntax, computed imports, require in an ES module, reads of their
    /// own files, `process.exit`. Returns the files with syntax errors (the bundler's parse errors
    /// there say the same).
    fn own_modules(&mut self) -> BTreeSet<String> {
        let Judging { modules, out, .. } = self;
        let mut broken_files = BTreeSet::new();
        let scanned: Vec<(String, ModuleScan)> =
            modules.scans.iter().map(|(p, s)| (p.to_string(), s.clone())).collect();
        for (path, scan) in scanned {
            for (message, span) in scan.syntax_errors {
                broken_files.insert(path.clone());
                if let Some(at) = modules.locate(&path, span) {
                    out.push(messages::handler_syntax_error(&message, &at));
                }
            }
            for span in scan.computed_imports {
                if let Some(at) = modules.locate(&path, span) {
                    out.push(messages::computed_import(&at));
                }
            }
            for &(name, span) in &scan.free_commonjs {
                if let Some(at) = modules.locate(&path, span) {
                    out.push(messages::commonjs_in_es_module(name, &at));
                }
            }
            let own_location_reported = scan.free_commonjs.iter().any(|(name, _)| *name != "require");
            if let Some(span) = scan.reads_own_files.filter(|_| !own_location_reported)
                && let Some(at) = modules.locate(&path, span)
            {
                out.push(messages::module_reads_own_files(&at));
            }
            for &span in &scan.process_exits {
                if let Some(at) = modules.locate(&path, span) {
                    out.push(messages::process_exit_in_handler(&at));
                }
            }
        }
        broken_files
    }

    /// What the bundler reported, errors then warnings. Returns the (importer, specifier) pairs
    /// reported as unresolved.
    fn bundler_reports(
        &mut self,
        reports: impl Iterator<Item = BuildDiagnostic>,
        broken_files: &BTreeSet<String>,
    ) -> BTreeSet<(String, String)> {
        let root = self.root;
        let mut reported: BTreeSet<(String, String)> = BTreeSet::new();
        for mut diagnostic in reports {
            let severity = diagnostic.severity();
            let kind = diagnostic.kind();
            if let Some(resolve) = diagnostic.downcast_mut::<DiagnosableResolveError>() {
                self.resolve_error(resolve, &mut reported);
                continue;
            }
            let id = diagnostic.id();
            if matches!(kind, EventKind::ParseError) && id.as_ref().is_some_and(|id| broken_files.contains(id)) {
                continue;
            }
            if matches!(kind, EventKind::MissingExportError) {
                let message = diagnostic.to_message_with(&DiagnosticOptions { cwd: root.as_std_path().to_path_buf() });
                if let Some(found) = missing_export(root, &mut self.modules, &message) {
                    // An empty message marks an import of a file that is not a module, which AB4833 reports.
                    if !found.message.is_empty() {
                        self.out.push(found);
                    }
                    continue;
                }
            }
            let message = diagnostic.to_message_with(&DiagnosticOptions { cwd: root.as_std_path().to_path_buf() });
            // A module this plugin refused is reported below, with why, at the module.
            if !self.run.observed.refused.is_empty() && message.contains("plugin `agent-bundle`") {
                continue;
            }
            // Paths in messages as everywhere else: relative to the bundle root.
            let message = message.replace(&format!("{root}/"), "");
            let own = id.as_deref().is_some_and(|id| !in_node_modules(id));
            let at = id.as_deref().and_then(|id| self.modules.locate(id, Span::default()));
            match severity {
                Severity::Error => self.out.push(messages::bundler_error(&message, at.as_ref())),
                // Warnings about packages' code are theirs to fix; only the bundle's own are shown.
                Severity::Warning if own => self.out.push(messages::bundler_warning(&message, at.as_ref())),
                _ => {}
            }
        }
        reported
    }

    /// A specifier the bundler could not resolve, once per importer and specifier, with the
    /// failure the plugin observed.
    fn resolve_error(&mut self, resolve: &DiagnosableResolveError, reported: &mut BTreeSet<(String, String)>) {
        let (specifier, span) = match &resolve.importee {
            DiagnosableArcstr::Span(span) => {
                let quoted = resolve.source.get(span.start as usize..span.end as usize).unwrap_or("");
                (quoted.get(1..quoted.len().saturating_sub(1)).unwrap_or("").to_string(), Some(*span))
            }
            DiagnosableArcstr::String(text) => (text.to_string(), None),
        };
        let importer = resolve.importer_id.to_string();
        if !reported.insert((importer.clone(), specifier.clone())) {
            return;
        }
        let failure = self
            .run
            .observed
            .unresolved
            .iter()
            .find(|u| u.importer == importer && u.specifier == specifier)
            .map_or(Failure::NotFound, |u| u.failure.clone());
        let at = match span {
            Some(span) => self.modules.locate(&importer, Span::new(span.start, span.end)),
            None => self.modules.import_site(&importer, &specifier),
        };
        self.out.push(unresolved(self.root, self.run, &importer, &specifier, &failure, at.as_ref()));
    }

    /// Each module the plugin refused to load, with why, where it is imported or, for a handler
    /// itself, where the config declares it.
    fn refused_modules(&mut self) {
        let Judging { root, run, handlers, modules, out, .. } = self;
        for (path, why) in &run.observed.refused {
            let shown = super::display_path(root, Utf8Path::new(path));
            let importer = run.observed.resolved.iter().find(|(_, _, _, id)| id == path).cloned();
            let declared = handlers
                .iter()
                .find(|h| crate::io::lexical_join(root, &h.path).as_str() == path)
                .or(handlers.first())
                .map(|h| h.declared_at.clone());
            let at = importer
                .and_then(|(importer, specifier, _, _)| modules.import_site(&importer, &specifier))
                .or(declared);
            out.push(messages::bundler_error(&format!("`{shown}` cannot be bundled: {why}"), at.as_ref()));
        }
    }

    /// When the bundler failed it dropped its warnings, among them bare specifiers that resolve
    /// nowhere; the plugin saw those too. Only imports (not `require`, which may sit in a `try`).
    fn unreported_bare_imports(&mut self, reported: &mut BTreeSet<(String, String)>) {
        let missing: Vec<Unresolved> = self
            .run
            .observed
            .unresolved
            .iter()
            .filter(|u| u.failure == Failure::NotFound && !is_path_like(&u.specifier) && !in_node_modules(&u.importer))
            .filter(|u| matches!(u.kind, ImportKind::Import | ImportKind::DynamicImport))
            .cloned()
            .collect();
        for u in missing {
            if reported.insert((u.importer.clone(), u.specifier.clone())) {
                let at = self.modules.import_site(&u.importer, &u.specifier);
                self.out.push(unresolved(self.root, self.run, &u.importer, &u.specifier, &u.failure, at.as_ref()));
            }
        }
    }

    /// Imported files that are not modules, and packages that load a compiled `.node` file directly.
    /// Returns the folders of the packages judged.
    fn imported_files(&mut self) -> BTreeSet<Utf8PathBuf> {
        let Judging { run, modules, out, .. } = self;
        let mut judged_packages = BTreeSet::new();
        for (importer, specifier, _, id) in run.observed.resolved.clone() {
            let extension = Utf8Path::new(&id).extension().unwrap_or("");
            if extension == "node" {
                let package = packages::nearest_package(Utf8Path::new(&id));
                if let Some(package) = package.filter(|p| judged_packages.insert(p.dir.clone())) {
                    let (at, chain) = modules.package_site(&package);
                    out.push(messages::native_addon(
                        &package.name,
                        "it loads a compiled `.node` file",
                        at.as_ref(),
                        &chain,
                    ));
                }
                continue;
            }
            let module = super::is_module_extension(extension);
            // An extension-less file is not a module either (the bundler takes it as an asset, and the
            // import of a default it does not have would otherwise go unexplained).
            let file = !extension.is_empty() || Utf8Path::new(&id).is_file();
            if !module
                && file
                && !in_node_modules(&importer)
                && let Some(at) = modules.import_site(&importer, &specifier)
            {
                out.push(messages::unsupported_import(&specifier, &at));
            }
        }
        judged_packages
    }

    /// Packages bundled (not external) that a bundle cannot carry: native addons, and code that reads
    /// its own files beside it. `judged_packages`: the folders already reported.
    fn bundled_packages(&mut self, mut judged_packages: BTreeSet<Utf8PathBuf>) {
        let Judging { run, external, modules, out, .. } = self;
        let bundled_packages: BTreeSet<Package> = run
            .observed
            .modules
            .keys()
            .filter(|path| in_node_modules(path))
            .filter_map(|path| {
                packages::package_of(&run.observed, path).or_else(|| packages::nearest_package(Utf8Path::new(path)))
            })
            .filter(|p| !external.contains(&p.name))
            .collect();
        for package in &bundled_packages {
            if !judged_packages.insert(package.dir.clone()) {
                continue;
            }
            if let Some(why) = packages::native_addon(package) {
                let (at, chain) = modules.package_site(package);
                out.push(messages::native_addon(&package.name, &why, at.as_ref(), &chain));
                continue;
            }
            let own_read = run
                .observed
                .modules
                .iter()
                .filter(|(path, _)| path.starts_with(&format!("{}/", package.dir)))
                .find_map(|(path, (_, text))| packages::reads_own_files(text).map(|offset| (path.clone(), offset)));
            if let Some((path, offset)) = own_read {
                let inside =
                    modules.files.get(path.as_str()).map(|f| f.locate(Span::new(offset as u32, offset as u32)));
                let (at, chain) = modules.package_site(package);
                let inside = inside.map(|l| format!("{}:{}", l.file, l.line)).unwrap_or_default();
                out.push(messages::reads_own_files(&package.name, &inside, at.as_ref(), &chain));
            }
        }
    }

    /// Decorators the bundler did not lower (TC39 decorators; it lowers TypeScript's experimental
    /// ones): Node would refuse the bundle at load.
    fn unlowered_decorators(&mut self) {
        let Judging { run, modules, out, .. } = self;
        if !run.chunks.iter().any(|chunk| super::scan::output_has_decorators(&chunk.code)) {
            return;
        }
        let decorated: Vec<(String, Vec<Span>)> = modules
            .scans
            .iter()
            .filter(|(_, scan)| !scan.decorators.is_empty())
            .map(|(path, scan)| (path.to_string(), scan.decorators.clone()))
            .collect();
        for (path, spans) in decorated {
            for span in spans {
                if let Some(at) = modules.locate(&path, span) {
                    out.push(messages::unlowered_decorator(&at));
                }
            }
        }
    }

    /// `require('./…')` the bundler could not follow (a UMD wrapper's): it can never succeed.
    fn unfollowed_requires(&mut self) {
        let Judging { root, run, external, modules, out, .. } = self;
        let mut seen = BTreeSet::new();
        for chunk in &run.chunks {
            for (line, column, specifier) in super::scan::live_relative_requires(&chunk.code) {
                // A compiled addon's require belongs to AB4836, which says so already.
                if specifier.ends_with(".node") || out.iter().any(|d| d.code == crate::diagnostic::Code::NativeAddon) {
                    continue;
                }
                let Some(module) = super::sourcemap::source_at(&chunk.map, line, column) else { continue };
                let absolute = crate::io::lexical_join(root, &module);
                let package =
                    in_node_modules(absolute.as_str()).then(|| packages::nearest_package(&absolute)).flatten();
                match package {
                    Some(package) if !external.contains(&package.name) => {
                        if seen.insert(package.dir.clone()) {
                            let (at, chain) = modules.package_site(&package);
                            out.push(messages::unfollowed_require(
                                &package.name,
                                &module,
                                &specifier,
                                at.as_ref(),
                                &chain,
                            ));
                        }
                    }
                    Some(_) => {}
                    None => {
                        let at = modules.locate(absolute.as_str(), Span::default());
                        out.push(messages::unfollowed_require(&module, &module, &specifier, at.as_ref(), &[]));
                    }
                }
            }
        }
    }

    /// Each handler must default-export its function (judged only when nothing else failed).
    fn default_exports(&mut self) {
        let Judging { root, run, handlers, modules, out, .. } = self;
        let failed = out.iter().any(Diagnostic::is_error);
        for handler in handlers.iter().filter(|h| !failed && !h.server) {
            if let Some(chunk) = run.entry(&handler.path)
                && !chunk.exports.iter().any(|e| e == "default")
            {
                out.push(messages::handler_without_default_export(&handler.path, &handler.declared_at));
            }
            let entry = crate::io::lexical_join(root, &handler.path);
            if let Some((what, span)) = modules.scans.get(entry.as_str()).and_then(|scan| scan.uncallable_default)
                && let Some(at) = modules.locate(entry.as_str(), span)
            {
                out.push(messages::default_export_not_a_function(&handler.path, what, &at, &handler.declared_at));
            }
        }
    }

    /// The findings: the diagnostics, the sources they point into, and what the scans found that is
    /// judged per host later (payload fields destructured, stdin read).
    fn findings(self) -> Findings {
        let Judging { root, handlers, modules, out, .. } = self;
        let payload_reads = handlers
            .iter()
            .filter_map(|handler| {
                let scan = modules.scans.get(crate::io::lexical_join(root, &handler.path).as_str())?;
                Some((handler.path.clone(), scan.payload_reads.clone()))
            })
            .collect();
        let stdin_reads =
            modules.scans.iter().filter_map(|(path, scan)| Some((path.to_string(), scan.stdin_read?))).collect();
        let tool_input_reads = modules
            .scans
            .iter()
            .filter(|(_, scan)| !scan.tool_input_reads.is_empty())
            .map(|(path, scan)| (path.to_string(), scan.tool_input_reads.clone()))
            .collect();
        let sources = modules.shown.iter().filter_map(|path| modules.files.get(path.as_str()).cloned()).collect();
        Findings { diagnostics: out, sources, payload_reads, stdin_reads, tool_input_reads }
    }
}

/// A named import the imported module does not export, at the name in the importing file, with the
/// export it may be a typo of. Read from the bundler's message: `"name" is not exported by
/// "module", imported by "importer".`
fn missing_export(root: &Utf8Path, modules: &mut Modules<'_>, message: &str) -> Option<Diagnostic> {
    let quoted: Vec<&str> = message.split('"').skip(1).step_by(2).collect();
    let [name, module, importer] = quoted[..] else { return None };
    let module_path = crate::io::lexical_join(root, module);
    let importer_path = crate::io::lexical_join(root, importer);
    // A file that is not a module has no exports at all: AB4833 says so already.
    let extension = module_path.extension().unwrap_or("");
    if !super::is_module_extension(extension) {
        return Some(Diagnostic::new(crate::diagnostic::Code::UnsupportedImport, String::new()));
    }
    let text = modules.files.get(importer_path.as_str())?.text.clone();
    let start = packages::find_identifier(&text, name)?;
    let at = modules.locate(importer_path.as_str(), Span::new(start as u32, (start + name.len()) as u32))?;
    let exported = modules
        .files
        .get(module_path.as_str())
        .map(|file| super::scan::exported_names(module_path.as_str(), &file.text))
        .unwrap_or_default();
    let similar = crate::vocabulary::suggest::did_you_mean(name, exported.iter().map(String::as_str));
    // Named as the importer wrote it (`lodash-es`), not as it resolved.
    let written = modules
        .run
        .observed
        .resolved
        .iter()
        .find(|(from, _, _, id)| from == importer_path.as_str() && id == module_path.as_str())
        .map_or(module, |(_, specifier, _, _)| specifier.as_str());
    Some(messages::missing_export(name, written, similar, &at))
}

/// The diagnostic for a specifier that resolved nowhere, with the hint for its case.
fn unresolved(
    root: &Utf8Path,
    run: &Run,
    importer: &str,
    specifier: &str,
    failure: &Failure,
    at: Option<&Location>,
) -> Diagnostic {
    let importer_package =
        in_node_modules(importer).then(|| packages::nearest_package(Utf8Path::new(importer))).flatten();
    let installer = installer(root);
    let mapping = specifier.starts_with('#').then(|| imports_mapping(importer, specifier)).flatten();
    let installed = installed_packages(importer);
    let name = crate::vocabulary::npm::package_name(specifier);
    let similar =
        crate::vocabulary::suggest::did_you_mean(name, installed.iter().map(String::as_str)).filter(|s| *s != name);
    let similar_subpath: Option<String>;
    let similar_file: Option<String>;
    let paths = run
        .watched
        .iter()
        .filter(|w| w.ends_with(".json") && w.contains("tsconfig"))
        .any(|tsconfig| std::fs::read_to_string(tsconfig).is_ok_and(|text| text.contains("\"paths\"")));
    let missing = match failure {
        Failure::NotExported => {
            let package = package_named(root, importer, crate::vocabulary::npm::package_name(specifier));
            let exported = package.as_ref().map(exported_subpaths).unwrap_or_default();
            return messages::subpath_not_exported(
                specifier,
                crate::vocabulary::npm::package_name(specifier),
                &exported,
                at,
            );
        }
        Failure::ImportNotDefined => MissingImport::PackageImport { maps_to: mapping.as_deref() },
        Failure::Other(detail) => MissingImport::Other(detail),
        Failure::NotFound if is_path_like(specifier) => {
            similar_file = similar_relative(importer, specifier);
            MissingImport::File { similar: similar_file.as_deref() }
        }
        Failure::NotFound if specifier.starts_with('#') => MissingImport::PackageImport { maps_to: mapping.as_deref() },
        Failure::NotFound => match &importer_package {
            Some(package) => MissingImport::DependencyOf { package: &package.name, installer },
            None if package_named(root, importer, name).is_some() => {
                let package = package_named(root, importer, name).expect("just found");
                similar_subpath = similar_subpath_in(&package, specifier);
                MissingImport::Subpath { similar: similar_subpath.as_deref() }
            }
            None => MissingImport::Package { installer, similar, paths },
        },
    };
    let mut diagnostic = messages::unresolved_import(specifier, missing, at);
    if diagnostic.labels.is_empty() {
        diagnostic.labels.push(Label {
            location: Location {
                file: display_path(root, Utf8Path::new(importer)),
                line: 1,
                column: 1,
                span: Span::default(),
            },
            message: "imported here".to_string(),
        });
    }
    diagnostic
}

/// A module beside where a relative specifier points that it may be a typo of, written the way the
/// specifier is (`./helpres` → `./helpers`, `../lib/polcy.js` → `../lib/policy.js`).
fn similar_relative(importer: &str, specifier: &str) -> Option<String> {
    let (folder, file) = specifier.rsplit_once('/')?;
    let dir = crate::io::lexical_join(Utf8Path::new(importer).parent()?, folder);
    let written_extension = file.rsplit_once('.').map(|(_, ext)| ext);
    let strip = |name: &str| -> String {
        match name.rsplit_once('.') {
            Some((stem, ext)) if super::is_module_extension(ext) && written_extension.is_none() => stem.to_string(),
            _ => name.to_string(),
        }
    };
    let candidates: Vec<String> =
        std::fs::read_dir(&dir).ok()?.flatten().map(|e| strip(&e.file_name().to_string_lossy())).collect();
    let found = crate::vocabulary::suggest::did_you_mean(file, candidates.iter().map(String::as_str))?;
    Some(format!("{folder}/{found}"))
}

/// A subpath `package` has that `specifier` may be a typo of: a file beside where it points.
fn similar_subpath_in(package: &Package, specifier: &str) -> Option<String> {
    let rest = specifier.strip_prefix(&package.name)?.trim_start_matches('/');
    let (folder, file) = rest.rsplit_once('/').unwrap_or(("", rest));
    let listing = std::fs::read_dir(package.dir.join(folder)).ok()?;
    let candidates: Vec<String> = listing
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let stem = ["js", "mjs", "cjs", "json", "ts"].iter().find_map(|ext| name.strip_suffix(&format!(".{ext}")));
            stem.map(str::to_string).or(entry.path().is_dir().then_some(name))
        })
        .collect();
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    let found = crate::vocabulary::suggest::did_you_mean(stem, candidates.iter().map(String::as_str))?;
    let shown = if folder.is_empty() { found.to_string() } else { format!("{folder}/{found}") };
    Some(format!("{}/{shown}", package.name))
}

/// Where the nearest package.json `imports` maps a `#…` specifier (`./src/lib/x.ts`), if it does.
fn imports_mapping(importer: &str, specifier: &str) -> Option<String> {
    let package = packages::nearest_package(Utf8Path::new(importer))?;
    let manifest = package.manifest()?;
    let imports = manifest.get("imports")?.as_object()?;
    imports.iter().find_map(|(pattern, target)| {
        let target = match target {
            serde_json::Value::String(t) => t.clone(),
            serde_json::Value::Object(conditions) => {
                ["node", "import", "default"].iter().find_map(|c| conditions.get(*c)?.as_str().map(str::to_string))?
            }
            _ => return None,
        };
        match pattern.split_once('*') {
            None => (pattern == specifier).then_some(target),
            Some((prefix, suffix)) => {
                let middle = specifier.strip_prefix(prefix)?.strip_suffix(suffix)?;
                Some(target.replace('*', middle))
            }
        }
    })
}

/// Names of the packages installed where Node looks from `importer`, for "did you mean".
fn installed_packages(importer: &str) -> Vec<String> {
    let mut names = Vec::new();
    for dir in Utf8Path::new(importer).ancestors().skip(1) {
        let Ok(entries) = std::fs::read_dir(dir.join("node_modules")) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            if name.starts_with('@') {
                let scoped = std::fs::read_dir(entry.path()).into_iter().flatten().flatten();
                names.extend(scoped.map(|e| format!("{name}/{}", e.file_name().to_string_lossy())));
            } else {
                names.push(name);
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The installed package `name` as Node finds it from `importer`.
fn package_named(root: &Utf8Path, importer: &str, name: &str) -> Option<Package> {
    let dir = packages::installed(Utf8Path::new(importer).parent().unwrap_or(root), name)?;
    Package::read(&dir.join("package.json"))
}

/// The subpaths a package's `exports` lists, for the hint.
fn exported_subpaths(package: &Package) -> Vec<String> {
    let Some(manifest) = package.manifest() else { return Vec::new() };
    match manifest.get("exports") {
        Some(serde_json::Value::Object(map)) => map
            .keys()
            .filter(|k| k.starts_with('.'))
            .map(|k| if k == "." { package.name.clone() } else { format!("{}/{}", package.name, &k[2..]) })
            .collect(),
        Some(_) => vec![package.name.clone()],
        None => Vec::new(),
    }
}

/// The command that installs a package in this project: the package manager its lockfile names.
fn installer(root: &Utf8Path) -> &'static str {
    for dir in root.ancestors() {
        if dir.join("pnpm-lock.yaml").is_file() {
            return "pnpm add";
        }
        if dir.join("yarn.lock").is_file() {
            return "yarn add";
        }
        if dir.join("bun.lock").is_file() || dir.join("bun.lockb").is_file() {
            return "bun add";
        }
        if dir.join("package-lock.json").is_file() {
            return "npm install";
        }
    }
    "npm install"
}
