//! The config model: what `agent-bundle.config.ts` declares, typed but not yet judged. Reading
//! ([`read`]) checks the schema (keys and types); the meaning of the values (do targets exist, do
//! handler files exist, do selectors map) is normalisation's job.

mod read;
mod route;

pub use read::read_config;
pub use route::{RouteConfig, judge_route, read_route_config};

use crate::vocabulary::canonical::CanonicalEvent;
use crate::vocabulary::source::Location;

/// A value with the place it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    pub value: T,
    pub at: Location,
}

#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Hook declarations in canonical event order, then in declaration order within an event.
    pub hooks: Vec<HookDeclaration>,
    pub plugin: Option<PluginConfig>,
    /// The config's top-level `targets`, as written.
    pub targets: Option<Spanned<Vec<Spanned<String>>>>,
    pub payloads: Vec<PayloadDeclaration>,
    pub bundle: Option<BundleConfig>,
    /// `mcpServers`: the plugin's own MCP servers, in declaration order.
    pub mcp_servers: Vec<McpServerDeclaration>,
    /// `skills`, `commands`, `agents` and `contextFile`, in declaration order.
    pub parts: Vec<PartDeclaration>,
}

/// One of `skills`, `commands`, `agents` (a folder) or `contextFile` (a file): `'./path'` or
/// `{ source, targets }`.
#[derive(Clone, Debug)]
pub struct PartDeclaration {
    pub kind: crate::vocabulary::part::PartKind,
    /// The key, for diagnostics about the whole declaration.
    pub at: Location,
    pub source: Spanned<String>,
    /// The hosts it is placed for; `None`: the config's targets.
    pub targets: Option<Spanned<Vec<Spanned<String>>>>,
}

/// One entry of `mcpServers`: Claude Code's `.mcp.json` shape, or a module the build bundles.
#[derive(Clone, Debug)]
pub struct McpServerDeclaration {
    /// The server's name (the key).
    pub name: Spanned<String>,
    /// The value, for diagnostics about the whole entry.
    pub at: Location,
    /// `command`: a program the host starts (a local server over stdio).
    pub command: Option<Spanned<String>>,
    /// `module`: a TypeScript or JavaScript module bundled like a handler and started with node.
    pub module: Option<Spanned<String>>,
    /// `url`: a remote server.
    pub url: Option<Spanned<String>>,
    /// `type`: `stdio`, `http` or `sse`.
    pub transport: Option<Spanned<String>>,
    pub args: Vec<Spanned<String>>,
    /// `env` (local servers) in declaration order.
    pub env: Vec<(Spanned<String>, Spanned<String>)>,
    /// `headers` (remote servers) in declaration order.
    pub headers: Vec<(Spanned<String>, Spanned<String>)>,
    pub cwd: Option<Spanned<String>>,
    /// The hosts the server is placed for; `None`: the config's targets.
    pub targets: Option<Spanned<Vec<Spanned<String>>>>,
}

/// How handlers are bundled.
#[derive(Clone, Debug, Default)]
pub struct BundleConfig {
    /// Packages shipped whole, with their dependencies, instead of bundled.
    pub external: Vec<Spanned<String>>,
    /// `keepOutsideLinks: true`: a symlink in a package shipped whole whose target lies outside the
    /// bundle root and its node_modules is shipped as that link instead of being an error.
    pub keep_outside_links: Option<Spanned<bool>>,
    /// `combineCommands: false`: every hook its own command, even where the host would start several
    /// for one call (by default they share one process per call, D18).
    pub combine_commands: Option<Spanned<bool>>,
    /// `warmServer: true`: the hooks that may fail open are answered by the plugin's own MCP server
    /// where the host can call it from a hook entry (Claude Code's `mcp_tool`), with no process.
    pub warm_server: Option<Spanned<bool>>,
    /// `define`: names replaced at bundling by the code given (not yet checked).
    pub define: Vec<(Spanned<String>, Spanned<String>)>,
}

#[derive(Clone, Debug)]
pub struct PluginConfig {
    pub name: Option<Spanned<String>>,
    pub description: Option<String>,
    pub version: Option<String>,
    pub author: Option<Author>,
    /// An SPDX license id for the manifests.
    pub license: Option<String>,
    /// A square PNG in the bundle, shown by hosts that show plugin icons.
    pub icon: Option<Spanned<String>>,
    /// `interface`: how a host's plugin browser presents the plugin (Codex's manifest object), each
    /// key as written, with its value as JSON.
    pub interface: Vec<(Spanned<String>, Spanned<serde_json::Value>)>,
    /// The plugin's home page, source repository and search keywords, for the manifests that carry them.
    pub homepage: Option<String>,
    pub repository: Option<String>,
    pub keywords: Option<Vec<String>>,
    pub at: Location,
}

/// Who publishes the plugin, as the hosts' manifests spell it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Author {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl Author {
    /// Reads npm's one-line form, `Name <email> (url)`.
    pub fn from_npm_line(line: &str) -> Option<Author> {
        let mut name = line;
        let mut email = None;
        let mut url = None;
        if let (Some(open), Some(close)) = (line.find('<'), line.find('>'))
            && open < close
        {
            email = Some(line[open + 1..close].trim().to_string()).filter(|e| !e.is_empty());
            name = &line[..open];
        }
        if let (Some(open), Some(close)) = (line.find('('), line.rfind(')'))
            && open < close
        {
            url = Some(line[open + 1..close].trim().to_string()).filter(|u| !u.is_empty());
            if open < name.len() {
                name = &name[..open];
            }
        }
        let name = name.trim();
        (!name.is_empty()).then(|| Author { name: name.to_string(), email, url })
    }
}

#[derive(Clone, Debug)]
pub struct HookDeclaration {
    pub event: CanonicalEvent,
    /// The entry (a bare path or an object) in the config.
    pub at: Location,
    pub handler: HandlerDeclaration,
    pub targets: Option<Spanned<Vec<Spanned<String>>>>,
    /// The declared timeout, a number not yet checked to be a positive whole number of seconds.
    pub timeout: Option<Spanned<f64>>,
    /// Selector strings, trimmed.
    pub tools: Vec<Spanned<String>>,
    pub args: Option<Spanned<Vec<String>>>,
    /// `failClosed: true`: any failure of the hook blocks the tool (D6 in docs/decisions.md).
    pub fail_closed: Option<Spanned<bool>>,
    /// `maxInputBytes`: the wrapper's stdin limit for this hook (D13), not yet range-checked.
    pub max_input_bytes: Option<Spanned<f64>>,
    /// sessionStart only: the session sources the hook runs for.
    pub sources: Option<Spanned<Vec<Spanned<String>>>>,
    /// `onMissingSelector`: what the hook does on a host that lacks one of its selectors.
    pub on_missing_selector: Option<Spanned<String>>,
    /// `async: true`: the host does not wait for the hook (events that cannot deny only).
    pub run_async: Option<Spanned<bool>>,
    /// `statusMessage`: what a host that shows one displays while the hook runs.
    pub status_message: Option<Spanned<String>>,
}

#[derive(Clone, Debug)]
pub enum HandlerDeclaration {
    /// A TypeScript or JavaScript module the build compiles.
    Module(Spanned<String>),
    /// An already-built file inside a declared payload.
    Prebuilt(Spanned<String>),
    /// The handler could not be read; its diagnostic has been reported.
    Invalid,
}

#[derive(Clone, Debug)]
pub struct PayloadDeclaration {
    pub name: Spanned<String>,
    pub source: Spanned<String>,
    pub targets: Option<Spanned<Vec<Spanned<String>>>>,
    /// `keepOutsideLinks: true`, as for `bundle`, for this payload's links.
    pub keep_outside_links: Option<Spanned<bool>>,
}

#[cfg(test)]
mod tests {
    use super::Author;

    /// Found by `tests/it/fuzz_config.rs`: a `>` before the `<` (or a `)` before the `(`) panicked.
    #[test]
    fn an_author_line_with_brackets_out_of_order_is_read_as_a_name() {
        for line in ["a > b <", "x) y (", "Name <me@x> (u", "<>()"] {
            let _ = Author::from_npm_line(line);
        }
        let author = Author::from_npm_line("Ann <ann@x.org> (https://x.org)").unwrap();
        assert_eq!(author.email.as_deref(), Some("ann@x.org"));
        assert_eq!(author.url.as_deref(), Some("https://x.org"));
    }
}
