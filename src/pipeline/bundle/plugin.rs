//! The rolldown plugin agent-bundle bundles with. It changes nothing about how modules resolve or
//! load; it watches: every module the bundler loads is read here (stat first, then read), so the
//! bundle's cache entry covers exactly the bytes the bundler saw; every resolution is observed, so
//! the package.json files that decided it are inputs too, and a bare specifier that resolves nowhere
//! is known even when the bundler fails for another reason (its own warning is then lost). It also
//! serves the `__dirname`/`__filename` shim that CommonJS packages need inside an ES module.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use camino::Utf8Path;
use rolldown_common::ImportKind;
use rolldown_plugin::{
    HookLoadArgs, HookLoadOutput, HookLoadReturn, HookResolveIdArgs, HookResolveIdOutput, HookResolveIdReturn,
    HookUsage, Plugin, PluginContext, PluginContextResolveOptions, SharedLoadPluginContext,
};

use crate::io::stamp::Recorded;

/// The virtual module that defines `__dirname` and `__filename` for bundled CommonJS code: the
/// bundle's own location, which is what those names mean once the code lives in the bundle.
pub(super) const LOCATION_SHIM_ID: &str = "\0agent-bundle:location";

const LOCATION_SHIM: &str = "import { fileURLToPath } from 'node:url';\n\
    import { dirname } from 'node:path';\n\
    export const __filename = fileURLToPath(import.meta.url);\n\
    export const __dirname = dirname(__filename);\n";

/// `@agent-bundle/runtime` and its JSX entry points, which agent-bundle provides itself (D12): a
/// route's `<Agent.Result>` needs no npm install, and what it imports is the same on every machine.
pub(super) const AGENT_RUNTIME_PACKAGE: &str = "@agent-bundle/runtime";
const AGENT_RUNTIME_ID: &str = "\0agent-bundle:runtime";
const AGENT_RUNTIME_ENTRIES: &[&str] =
    &["@agent-bundle/runtime", "@agent-bundle/runtime/jsx-runtime", "@agent-bundle/runtime/jsx-dev-runtime"];
pub(crate) const AGENT_RUNTIME: &str = include_str!("agent-runtime.mjs");

use crate::vocabulary::nesting::MAX_MODULE_NESTING;

/// Why a specifier resolved nowhere, as the resolver said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Failure {
    NotFound,
    /// A package's `exports` does not list the subpath.
    NotExported,
    /// A `#…` specifier that package.json `imports` does not define.
    ImportNotDefined,
    Other(String),
}

/// A specifier that resolved nowhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Unresolved {
    pub importer: String,
    pub specifier: String,
    pub kind: ImportKind,
    pub failure: Failure,
}

/// What one bundler run read and resolved.
#[derive(Debug, Default)]
pub(super) struct Observed {
    /// Absolute module path → what was read, and the text handed to the bundler.
    pub modules: BTreeMap<String, (Recorded, String)>,
    /// Every module id a resolution produced, with the package.json that governed it.
    pub package_of: BTreeMap<String, String>,
    pub unresolved: Vec<Unresolved>,
    /// Module ids resolved from each importer, with the specifier and kind used.
    pub resolved: Vec<(String, String, ImportKind, String)>,
    /// Modules this plugin refused to load (not a regular file, nested too deep), with why.
    pub refused: Vec<(String, String)>,
}

#[derive(Debug, Default)]
pub(super) struct Observer {
    pub observed: Mutex<Observed>,
}

#[derive(Debug)]
pub(super) struct AgentBundlePlugin {
    pub observer: Arc<Observer>,
}

impl Plugin for AgentBundlePlugin {
    fn name(&self) -> Cow<'static, str> {
        Cow::Borrowed("agent-bundle")
    }

    fn register_hook_usage(&self) -> HookUsage {
        HookUsage::ResolveId | HookUsage::Load
    }

    async fn resolve_id(&self, ctx: &PluginContext, args: &HookResolveIdArgs<'_>) -> HookResolveIdReturn {
        if args.specifier == LOCATION_SHIM_ID {
            return Ok(Some(HookResolveIdOutput::from_id(LOCATION_SHIM_ID)));
        }
        if AGENT_RUNTIME_ENTRIES.contains(&args.specifier) {
            return Ok(Some(HookResolveIdOutput::from_id(AGENT_RUNTIME_ID)));
        }
        let Some(importer) = args.importer else { return Ok(None) };
        if importer.starts_with('\0') || is_node_builtin(args.specifier) {
            return Ok(None);
        }
        let options = PluginContextResolveOptions {
            import_kind: args.kind,
            is_entry: false,
            skip_self: true,
            custom: Arc::clone(&args.custom),
        };
        let resolved = ctx.resolve(args.specifier, Some(importer), Some(options)).await?;
        let mut observed = self.observer.observed.lock().expect("the observer is never poisoned");
        match resolved {
            Ok(resolved) if !resolved.external.is_external() => {
                let id = resolved.id.as_str().to_string();
                if let Some(package_json) = &resolved.package_json {
                    observed.package_of.insert(id.clone(), package_json.realpath().to_string_lossy().into_owned());
                }
                observed.resolved.push((importer.to_string(), args.specifier.to_string(), args.kind, id));
            }
            Ok(_) => {}
            Err(error) => {
                use rolldown_resolver::ResolveError;
                let failure = match error {
                    ResolveError::NotFound(_) | ResolveError::MatchedAliasNotFound(..) => Failure::NotFound,
                    ResolveError::PackagePathNotExported { .. } => Failure::NotExported,
                    ResolveError::PackageImportNotDefined(..) => Failure::ImportNotDefined,
                    other => Failure::Other(other.to_string()),
                };
                observed.unresolved.push(Unresolved {
                    importer: importer.to_string(),
                    specifier: args.specifier.to_string(),
                    kind: args.kind,
                    failure,
                });
            }
        }
        // The bundler resolves it again, itself: observing must not change what it decides.
        Ok(None)
    }

    async fn load(&self, _ctx: SharedLoadPluginContext, args: &HookLoadArgs<'_>) -> HookLoadReturn {
        if args.id == LOCATION_SHIM_ID {
            return Ok(Some(HookLoadOutput { code: LOCATION_SHIM.into(), ..Default::default() }));
        }
        if args.id == AGENT_RUNTIME_ID {
            return Ok(Some(HookLoadOutput { code: AGENT_RUNTIME.into(), ..Default::default() }));
        }
        let path = Utf8Path::new(args.id);
        // Only regular files are read, by the bundler too: a FIFO would block it, a device or a
        // link to `/dev/zero` would be read forever.
        if path.is_absolute()
            && let Ok(metadata) = std::fs::metadata(path)
            && !metadata.is_file()
        {
            return Err(self.refuse(
                path,
                "it is not a regular file (a FIFO, a device or a folder), which a build never reads".into(),
            ));
        }
        let text_module = path.extension().is_some_and(super::is_module_extension);
        if !text_module || !path.is_absolute() {
            return Ok(None);
        }
        let (recorded, bytes) = Recorded::read_file(path);
        // Unreadable or not UTF-8: the bundler reads it itself and reports the problem its way.
        let Some(text) = bytes.and_then(|b| String::from_utf8(b).ok()) else { return Ok(None) };
        let jsx = crate::vocabulary::nesting::jsx_in(path.as_str());
        if let Some(too_deep) = crate::vocabulary::nesting::past_limit(&text, jsx, MAX_MODULE_NESTING) {
            let line = text[..too_deep.offset].matches('\n').count() + 1;
            return Err(self.refuse(
                path,
                format!(
                    "it nests its {} deeper than {MAX_MODULE_NESTING} levels (line {line}), past what the parser can follow",
                    too_deep.construct.describe()
                ),
            ));
        }
        let code = arcstr::ArcStr::from(text.as_str());
        self.observer
            .observed
            .lock()
            .expect("the observer is never poisoned")
            .modules
            .insert(args.id.to_string(), (recorded, text));
        Ok(Some(HookLoadOutput { code, ..Default::default() }))
    }
}

impl AgentBundlePlugin {
    /// Records why a module is refused, for the findings to report at its place, and returns the
    /// error that stops the bundler.
    fn refuse(&self, path: &Utf8Path, why: String) -> anyhow::Error {
        let error = anyhow::anyhow!("`{path}` cannot be bundled: {why}");
        self.observer.observed.lock().expect("the observer is never poisoned").refused.push((path.to_string(), why));
        error
    }
}

/// `./x`, `../x`, `/x`: specifiers that name files, which the bundler itself reports when missing.
pub(super) fn is_path_like(specifier: &str) -> bool {
    specifier.starts_with("./") || specifier.starts_with("../") || specifier.starts_with('/') || specifier == "."
}

/// Node's built-in modules, which stay imports of the running Node.
pub(super) fn is_node_builtin(specifier: &str) -> bool {
    if specifier.starts_with("node:") {
        return true;
    }
    let name = specifier.split('/').next().unwrap_or(specifier);
    NODE_BUILTINS.binary_search(&name).is_ok()
}

/// Importable without the `node:` prefix (sorted for binary search).
const NODE_BUILTINS: &[&str] = &[
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "console",
    "constants",
    "crypto",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "punycode",
    "querystring",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "sys",
    "timers",
    "tls",
    "trace_events",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "wasi",
    "worker_threads",
    "zlib",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_are_sorted_and_recognised() {
        assert!(NODE_BUILTINS.windows(2).all(|w| w[0] < w[1]));
        assert!(is_node_builtin("fs/promises"));
        assert!(is_node_builtin("node:test"));
        assert!(!is_node_builtin("lodash"));
    }
}
