//! Bundling handler modules: syntax, imports, packages (external, native, reading their own files),
//! what the bundler reports.

use super::{list, through};
use crate::diagnostic::{Code, Diagnostic};
use crate::vocabulary::npm::package_name;
use crate::vocabulary::source::Location;

pub fn invalid_external(name: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::WrongType, format!("`bundle.external` lists `{name}`, which is not an npm package name"))
        .at(Some(at), "expected `name` or `@scope/name`")
        .hint("list packages by name, as in `import … from 'name'`; a package is shipped whole with all its files")
}

pub fn handler_syntax_error(message: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::HandlerSyntaxError, format!("handler module does not compile: {message}"))
        .at(Some(at), "here")
        .hint("fix the module; handlers are bundled as TypeScript (`.ts`, `.mts`, `.cts`, `.tsx`) or JavaScript")
}

/// Why an import resolved nowhere, which decides the hint.
#[derive(Clone, Copy, Debug)]
pub enum MissingImport<'a> {
    /// A relative or absolute path to a file that does not exist; `similar` is a file beside it the
    /// specifier may be a typo of.
    File {
        similar: Option<&'a str>,
    },
    /// A `#…` specifier of the nearest package.json `imports`: not defined there, or (`maps_to`)
    /// mapped to a file that does not exist.
    PackageImport {
        maps_to: Option<&'a str>,
    },
    /// A package that is not installed where Node looks for it from the importing file; `similar`
    /// names an installed one the specifier may be a typo of; `paths` says a tsconfig has `paths`.
    Package {
        installer: &'a str,
        similar: Option<&'a str>,
        paths: bool,
    },
    /// An installed package without the file the specifier names; `similar` is a subpath it has
    /// that the specifier may be a typo of.
    Subpath {
        similar: Option<&'a str>,
    },
    /// A package's own dependency that is not installed.
    DependencyOf {
        package: &'a str,
        installer: &'a str,
    },
    Other(&'a str),
}

pub fn unresolved_import(specifier: &str, missing: MissingImport<'_>, at: Option<&Location>) -> Diagnostic {
    let name = package_name(specifier);
    let (label, hint) = match missing {
        MissingImport::File { similar: Some(similar) } => {
            ("no such file".to_string(), format!("did you mean `{similar}`?"))
        }
        MissingImport::File { similar: None } => (
            "no such file".to_string(),
            "relative imports resolve to the file as written, or with `.ts`, `.tsx`, `.mts`, `.cts`, `.js`, `.jsx`, `.mjs`, `.cjs`, `.json` added, or to an `index` file in a folder".to_string(),
        ),
        MissingImport::PackageImport { maps_to: Some(target) } => (
            format!("package.json `imports` maps it to `{target}`, which does not exist"),
            format!("create `{target}`, or fix the specifier or the `imports` entry"),
        ),
        MissingImport::PackageImport { maps_to: None } => (
            "not defined in package.json `imports`".to_string(),
            format!("add an entry matching `{specifier}` to the `imports` field of the nearest package.json, or fix the specifier"),
        ),
        MissingImport::Package { similar: Some(similar), .. } => (
            "not installed".to_string(),
            format!("did you mean `{similar}`, which is installed?"),
        ),
        MissingImport::Package { installer, similar: None, paths } => (
            "not installed".to_string(),
            if paths {
                format!("install it (`{installer} {name}`); if `{name}` is a tsconfig `paths` alias, check that the file it maps to exists")
            } else {
                format!("install it (`{installer} {name}`)")
            },
        ),
        MissingImport::Subpath { similar: Some(similar) } => {
            ("no such file in the package".to_string(), format!("did you mean `{similar}`?"))
        }
        MissingImport::Subpath { similar: None } => (
            "no such file in the package".to_string(),
            format!(
                "`{name}` is installed but has no `{}`; check the package's files for the right subpath",
                specifier[name.len()..].trim_start_matches('/')
            ),
        ),
        MissingImport::DependencyOf { package, installer } => (
            format!("a dependency of `{package}` that is not installed"),
            format!(
                "reinstall the project's packages (`{} install`) so that `{package}` finds its dependency `{name}`",
                installer.split(' ').next().unwrap_or("npm")
            ),
        ),
        MissingImport::Other(detail) => (detail.to_string(), "fix the specifier or the package it names".to_string()),
    };
    Diagnostic::new(Code::UnresolvedImport, format!("cannot resolve import `{specifier}`")).at(at, label).hint(hint)
}

pub fn subpath_not_exported(specifier: &str, package: &str, exported: &[String], at: Option<&Location>) -> Diagnostic {
    let hint = if exported.is_empty() {
        format!("import one of the entry points `{package}` exports")
    } else {
        let more = if exported.len() > 8 { ", …" } else { "" };
        format!("`{package}` exports {}{more}", list(exported.iter().take(8)))
    };
    Diagnostic::new(Code::SubpathNotExported, format!("`{package}` does not export `{specifier}`"))
        .at(at, "not in the package's `exports`")
        .note("Node refuses subpaths a package's `exports` does not list, so this import would fail at run time")
        .hint(hint)
}

pub fn computed_import(at: &Location) -> Diagnostic {
    Diagnostic::new(Code::ComputedImport, "`import()` of a specifier computed at run time")
        .at(Some(at), "not a string the build can follow")
        .note("the bundle carries only the modules the build can see; at run time there is no source tree to import from")
        .hint("import each module with a string literal (`await import('./plugins/a.ts')`), choosing among them at run time")
}

pub fn commonjs_in_es_module(name: &str, at: &Location) -> Diagnostic {
    let hint = if name == "require" {
        "use `import` (or `await import()`), or `createRequire(import.meta.url)` from `node:module` if you must"
    } else {
        "a handler's bundle does not carry the files beside its sources: import JSON and modules instead, or ship files in a payload; for this module's own location use `import.meta.url`"
    };
    Diagnostic::new(Code::RequireInEsModule, format!("`{name}` in an ES module"))
        .at(Some(at), "not defined in an ES module")
        .note(format!(
            "Node defines `{name}` only in CommonJS modules; this module imports or exports, so it is an ES module"
        ))
        .hint(hint)
}

pub fn module_reads_own_files(at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::ModuleReadsBesideItself,
        "this module reads a file located from its own place, which is not there once it is bundled",
    )
    .at(Some(at), "read beside the module")
    .note("bundled, a handler runs from hooks/handlers/ in each host's plugin folder; the files beside its source are not shipped there")
    .hint("ship the file in a payload and read it through the handler's context, `readFileSync(join(context.pluginRoot, '<payload>', '<file>'))`, or import it (JSON and modules are bundled)")
}

pub fn native_addon_coverage(package: &str, built: &[String], missing: &[&str], at: &Location) -> Diagnostic {
    let message = if built.is_empty() {
        format!(
            "`{package}` holds no compiled native addon to ship: it was never built here, so the hook cannot load it anywhere"
        )
    } else {
        format!("`{package}` ships native addons built for {} only", built.join("; "))
    };
    let mut diagnostic = Diagnostic::new(Code::NativeAddonCoverage, message).at(Some(at), "shipped whole");
    if !missing.is_empty() && !built.is_empty() {
        diagnostic = diagnostic
            .note(format!("a plugin runs on its users' machines: on {} the hook cannot load it", missing.join(", ")));
    }
    diagnostic
        .note("a Node-ABI build loads only in the Node release line it was built for; a Node-API (napi) build loads in any later Node")
        .hint("use a package that ships Node-API prebuilds for every system (`prebuilds/<os>-<arch>/`, loaded by node-gyp-build), or install it on first run into `context.dataDir` (README: Native addons)")
}

pub fn process_exit_in_handler(at: &Location) -> Diagnostic {
    Diagnostic::new(Code::ProcessExitInHandler, "a handler's module calls `process.exit`, which ends the hook before it answers")
        .at(Some(at), "ends the hook")
        .note("the wrapper runs the handler and answers the host itself; a process that ends before the answer is a failed hook (a fail-closed guard blocks)")
        .hint("return the result instead (nothing to continue, `{ outcome: 'deny', reason }` to block); code that runs only as a script belongs in an `if (import.meta.url === pathToFileURL(process.argv[1]).href)` branch, which the build leaves alone")
}

pub fn unfollowed_require(
    package: &str,
    module: &str,
    specifier: &str,
    at: Option<&Location>,
    chain: &[String],
) -> Diagnostic {
    Diagnostic::new(
        Code::UnfollowedRequire,
        format!("`{package}` requires `{specifier}` in a way the bundler cannot follow{}", through(chain)),
    )
    .at(at, "imported here")
    .note(format!("`{module}` calls `require('{specifier}')` through a variable (a UMD wrapper's, say); the file is not in the bundle, so the call fails at run time"))
    .hint(format!("ship it whole: {}, or import a build of the package meant for bundlers (its ESM entry)", external_entry(package)))
}

pub fn missing_export(name: &str, module: &str, similar: Option<&str>, at: &Location) -> Diagnostic {
    let hint = match similar {
        Some(similar) => format!("did you mean `{similar}`?"),
        None => format!("import a name `{module}` exports, or its default export"),
    };
    Diagnostic::new(Code::MissingExport, format!("`{module}` does not export `{name}`"))
        .at(Some(at), "not exported")
        .hint(hint)
}

pub fn unlowered_decorator(at: &Location) -> Diagnostic {
    Diagnostic::new(Code::UnloweredDecorator, "a decorator the bundler cannot lower for Node 18")
        .at(Some(at), "standard (TC39) decorator")
        .note("Node runs no decorators yet; the bundler lowers TypeScript's experimental decorators only")
        .hint("set `\"experimentalDecorators\": true` in tsconfig.json (TypeScript's decorators), or apply the function by hand")
}

pub fn unsupported_import(specifier: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::UnsupportedImport,
        format!("import `{specifier}` is not a JavaScript, TypeScript or JSON module"),
    )
    .at(Some(at), "cannot be bundled into a hook")
    .hint("import modules and JSON only; ship other files (texts, templates, assets) in a payload and read them at run time through the handler's context: `readFileSync(join(context.pluginRoot, '<payload>', '<file>'), 'utf8')`")
}

pub fn handler_without_default_export(path: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::HandlerWithoutDefaultExport, format!("handler `{path}` has no default export"))
        .at(Some(at), "declared here")
        .hint("export the handler function: `export default (event) => { … }`")
}

pub fn default_export_not_a_function(path: &str, what: &str, at: &Location, declared_at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::DefaultExportNotAFunction,
        format!("handler `{path}` default-exports {what}, but the wrapper calls its default export with the event"),
    )
    .at(Some(at), "not a function")
    .at(Some(declared_at), "used as a handler here")
    .hint("export the handler function: `export default (event) => { … }` (or `export default function handle(event) { … }`)")
}

/// How a package is shipped whole instead of bundled.
fn external_entry(package: &str) -> String {
    format!("add `bundle: {{ external: ['{package}'] }}` to the config")
}

pub fn native_addon(package: &str, why: &str, at: Option<&Location>, chain: &[String]) -> Diagnostic {
    Diagnostic::new(Code::NativeAddon, format!("`{package}` is a native addon and cannot be bundled{}", through(chain)))
        .at(at, "imported here")
        .note(format!("{why}; compiled code for one platform must ship as installed, next to its JavaScript"))
        .hint(format!(
            "ship it whole: {} (the plugin then runs only on the platform it was installed for)",
            external_entry(package)
        ))
}

pub fn reads_own_files(package: &str, inside: &str, at: Option<&Location>, chain: &[String]) -> Diagnostic {
    Diagnostic::new(
        Code::ReadsOwnFiles,
        format!(
            "`{package}` reads files next to itself at run time, which its bundle does not carry{}",
            through(chain)
        ),
    )
    .at(at, "imported here")
    .note(format!("`{inside}` locates files from its own folder (`__dirname`, `import.meta.url`)"))
    .hint(format!("if the hook uses that part of `{package}`, ship it whole: {}", external_entry(package)))
}

pub fn bundler_error(message: &str, at: Option<&Location>) -> Diagnostic {
    with_further_lines(
        Diagnostic::new(Code::BundlerError, format!("the bundler failed: {}", first_line(message))),
        message,
    )
    .at(at, "in this module")
    .hint("fix what the bundler names in this module")
}

pub fn bundler_warning(message: &str, at: Option<&Location>) -> Diagnostic {
    with_further_lines(
        Diagnostic::new(Code::BundlerWarning, format!("the bundler warns: {}", first_line(message))),
        message,
    )
    .at(at, "in this module")
    .hint("the bundle still builds; check what the warning names in this module")
}

fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or(message).trim()
}

/// The lines of a bundler message after its first, as notes.
fn with_further_lines(mut diagnostic: Diagnostic, message: &str) -> Diagnostic {
    for line in message.lines().skip(1).map(str::trim).filter(|l| !l.is_empty()) {
        diagnostic = diagnostic.note(line);
    }
    diagnostic
}

pub fn external_not_installed(name: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::ExternalNotInstalled, format!("`bundle.external` names `{name}`, which is not installed"))
        .at(Some(at), "not found in any node_modules above the bundle")
        .hint(format!("install it (`npm install {name}`) or remove it from `bundle.external`"))
}

pub fn external_unused(name: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::ExternalUnused, format!("`bundle.external` names `{name}`, which no handler imports"))
        .at(Some(at), "no handler imports it, so nothing is shipped")
        .hint(format!("remove `{name}` from `bundle.external`, or import it from a handler"))
}

pub fn package_unreadable(name: &str, detail: &str, at: Option<&Location>) -> Diagnostic {
    Diagnostic::new(Code::PackageUnreadable, format!("package `{name}` cannot be shipped whole: {detail}"))
        .at(at, "listed here")
        .hint("reinstall the project's packages and build again")
}

/// `link`: the link's path relative to the bundle root; `target`: its target as written.
pub fn package_link_outside(name: &str, link: &str, target: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::PackageLinkOutside,
        format!(
            "package `{name}` holds `{link}`, a symlink to `{target}`, outside the bundle root, its node_modules and the package's folder"
        ),
    )
    .at(Some(at), "shipped whole from here")
    .note("a plugin ships only what is inside its bundle; nothing the link names was read")
    .hint(format!(
        "remove the link from the installed package, or set `bundle: {{ keepOutsideLinks: true }}` to ship the link itself (it then names `{target}` on the machine that runs the plugin)"
    ))
}
