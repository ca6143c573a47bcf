//! The plugin's own MCP servers (`mcpServers`): each entry judged into an [`McpServer`] (one kind of
//! server, a name every host can carry, paths through `${pluginRoot}` only), and the `mcp:<server>`
//! selectors that name their tools.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{HANDLER_EXTENSIONS, Normaliser};
use crate::diagnostic::messages;
use crate::hosts;
use crate::io::lexical_join;
use crate::pipeline::config::{McpServerDeclaration, Spanned};
use crate::vocabulary::source::Location;
use crate::vocabulary::target::Target;

/// The token a server's `command`, `args`, `cwd` and `env` name the plugin's root with; each host's
/// own (its table's `pluginMcp.rootToken`) replaces it.
pub const PLUGIN_ROOT_TOKEN: &str = "${pluginRoot}";

/// The prefix of a selector naming the plugin's own server's tools: `mcp:<server>`, `mcp:<server>/<tool>`.
pub const MCP_SELECTOR_PREFIX: &str = "mcp:";

/// One of the plugin's MCP servers, judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct McpServer {
    pub name: String,
    /// The hosts it is declared for (the config's targets unless it names its own).
    pub targets: Vec<Target>,
    #[serde(flatten)]
    pub spec: McpServerSpec,
    #[serde(skip)]
    pub declared_at: Location,
}

/// What a server is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum McpServerSpec {
    /// A program the host starts, speaking MCP on stdio.
    Command {
        command: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        args: Vec<String>,
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        env: BTreeMap<String, String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        cwd: Option<String>,
    },
    /// A module of the bundle (root-relative path), bundled like a handler and started with node.
    Module {
        module: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        args: Vec<String>,
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        env: BTreeMap<String, String>,
    },
    /// A remote server: `http` (streamable HTTP) or `sse`.
    Remote {
        transport: String,
        url: String,
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        headers: BTreeMap<String, String>,
    },
}

impl McpServerSpec {
    /// The remote transport, for a remote server.
    pub fn transport(&self) -> Option<&str> {
        match self {
            McpServerSpec::Remote { transport, .. } => Some(transport),
            _ => None,
        }
    }
}

/// A selector naming the plugin's own server's tools: `mcp:<server>` (every tool) or
/// `mcp:<server>/<tool>`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct McpToolSelector {
    pub server: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

impl McpToolSelector {
    /// As written in `tools`.
    pub fn written(&self) -> String {
        match &self.tool {
            Some(tool) => format!("{MCP_SELECTOR_PREFIX}{}/{tool}", self.server),
            None => format!("{MCP_SELECTOR_PREFIX}{}", self.server),
        }
    }
}

/// A tool name a selector may give: letters, digits, `_`, `-` and `.`, or `*` for any run.
fn is_tool_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '*'))
}

impl Normaliser<'_> {
    /// Judges `mcpServers`; `selected` is the config's targets.
    pub(super) fn mcp_servers(&mut self, declarations: &[McpServerDeclaration], selected: &[Target]) -> Vec<McpServer> {
        let mut servers = Vec::new();
        for declaration in declarations {
            let name = &declaration.name;
            if !crate::vocabulary::is_portable_name(&name.value) {
                self.diagnostics.push(messages::mcp_server_name(&name.value, &name.at));
                continue;
            }
            let errors_before = self.error_count();
            let targets = match &declaration.targets {
                Some(targets) => {
                    let mut chosen = Vec::new();
                    for target in &targets.value {
                        match Target::from_name(&target.value) {
                            Some(t) if selected.contains(&t) => chosen.push(hosts::table(t).built_as()),
                            Some(t) => {
                                self.diagnostics.push(messages::entry_target_not_selected(t, selected, &target.at))
                            }
                            None => self.diagnostics.push(messages::unknown_entry_target(&target.value, &target.at)),
                        }
                    }
                    chosen.sort();
                    chosen.dedup();
                    chosen
                }
                None => hosts::built_hosts(selected),
            };
            let spec = self.mcp_spec(declaration);
            if let Some(spec) = spec
                && self.error_count() == errors_before
            {
                servers.push(McpServer { name: name.value.clone(), targets, spec, declared_at: name.at.clone() });
            }
        }
        servers.sort_by(|a, b| a.name.cmp(&b.name));
        servers
    }

    /// The kind of one server: exactly one of `command`, `module` and `url`, with only its own keys.
    fn mcp_spec(&mut self, d: &McpServerDeclaration) -> Option<McpServerSpec> {
        let name = &d.name.value;
        let kinds: Vec<(&str, &Spanned<String>)> = [("command", &d.command), ("module", &d.module), ("url", &d.url)]
            .into_iter()
            .filter_map(|(key, value)| value.as_ref().map(|v| (key, v)))
            .collect();
        let (kind, value) = match kinds.as_slice() {
            [one] => *one,
            [] => {
                self.diagnostics.push(messages::mcp_server_shape(
                    name,
                    "it has none of `command`, `module` and `url`",
                    &d.at,
                ));
                return None;
            }
            // Pointing at the second kind's value: the first is taken as what was meant.
            [_, (_, value), ..] => {
                let keys: Vec<String> = kinds.iter().map(|(k, _)| format!("`{k}`")).collect();
                let why = format!("it has {}, and a server is one of them", keys.join(" and "));
                self.diagnostics.push(messages::mcp_server_shape(name, &why, &value.at));
                return None;
            }
        };
        // Keys that belong to another kind of server.
        let local = kind != "url";
        let stray: Option<(&str, &Location)> = if local {
            d.headers.first().map(|(k, _)| ("headers", &k.at))
        } else {
            d.args
                .first()
                .map(|a| ("args", &a.at))
                .or_else(|| d.env.first().map(|(k, _)| ("env", &k.at)))
                .or_else(|| d.cwd.as_ref().map(|c| ("cwd", &c.at)))
        };
        let stray = stray.or_else(|| if kind == "module" { d.cwd.as_ref().map(|c| ("cwd", &c.at)) } else { None });
        if let Some((key, at)) = stray {
            let why = format!("`{key}` does not go with `{kind}`");
            self.diagnostics.push(messages::mcp_server_shape(name, &why, at));
            return None;
        }
        let transport = d.transport.as_ref();
        match (kind, transport.map(|t| t.value.as_str())) {
            (_, None) | ("url", Some("http" | "sse")) | ("command" | "module", Some("stdio")) => {}
            (_, Some(other)) => {
                let at = &transport.expect("a type was written").at;
                let allowed = if local { "`stdio`" } else { "`http` or `sse`" };
                self.diagnostics.push(messages::mcp_server_remote(name, &format!("`type: '{other}'`"), allowed, at));
                return None;
            }
        }
        // Every value that reaches a host: a host's own root variable there breaks the others.
        let mut values: Vec<&Spanned<String>> = vec![value];
        values.extend(d.args.iter());
        values.extend(d.env.iter().map(|(_, v)| v));
        values.extend(d.headers.iter().map(|(_, v)| v));
        values.extend(d.cwd.iter());
        for value in values {
            if let Some(token) = host_root_token(&value.value) {
                self.diagnostics.push(messages::mcp_server_host_root(name, &token, PLUGIN_ROOT_TOKEN, &value.at));
            }
        }
        let args = d.args.iter().map(|a| a.value.clone()).collect();
        let env = d.env.iter().map(|(k, v)| (k.value.clone(), v.value.clone())).collect();
        Some(match kind {
            "command" => {
                if value.value.trim().is_empty() {
                    self.diagnostics.push(messages::mcp_server_shape(name, "its `command` is empty", &value.at));
                    return None;
                }
                McpServerSpec::Command {
                    command: value.value.clone(),
                    args,
                    env,
                    cwd: d.cwd.as_ref().map(|c| c.value.clone()),
                }
            }
            "module" => McpServerSpec::Module { module: self.mcp_module(name, value)?, args, env },
            _ => {
                let url = value.value.trim();
                if !(url.starts_with("https://") || url.starts_with("http://")) || url.contains(char::is_whitespace) {
                    self.diagnostics.push(messages::mcp_server_remote(
                        name,
                        &format!("`url: '{url}'`"),
                        "an `http://` or `https://` URL",
                        &value.at,
                    ));
                    return None;
                }
                McpServerSpec::Remote {
                    transport: transport.map_or("http", |t| t.value.as_str()).to_string(),
                    url: url.to_string(),
                    headers: d.headers.iter().map(|(k, v)| (k.value.clone(), v.value.clone())).collect(),
                }
            }
        })
    }

    /// A server's `module`: a TypeScript or JavaScript file inside the bundle root.
    fn mcp_module(&mut self, server: &str, path: &Spanned<String>) -> Option<String> {
        let absolute = lexical_join(self.root, &path.value);
        let refuse = |n: &mut Self, why: &str| {
            n.diagnostics.push(messages::mcp_server_module(server, &path.value, why, &path.at));
            None
        };
        let Some(relative) = self.inside_root(&absolute) else {
            return refuse(self, "it lies outside the bundle root");
        };
        let extension = relative.rsplit_once('.').map(|(_, ext)| ext).unwrap_or("");
        if !HANDLER_EXTENSIONS.contains(&extension) {
            return refuse(self, "it is not a TypeScript or JavaScript module (`.ts`, `.mts`, `.js`, `.mjs`, …)");
        }
        if !self.disk.is_file(&absolute) {
            return refuse(self, "no such file");
        }
        Some(relative)
    }

    /// The `mcp:<server>` and `mcp:<server>/<tool>` selectors of a hook, each naming a declared server.
    pub(super) fn mcp_selector(&mut self, tool: &Spanned<String>, servers: &[McpServer]) -> Option<McpToolSelector> {
        let rest = tool.value.strip_prefix(MCP_SELECTOR_PREFIX)?;
        let (server, name) = match rest.split_once('/') {
            Some((server, name)) => (server.trim(), Some(name.trim())),
            None => (rest.trim(), None),
        };
        let declared: Vec<&str> = servers.iter().map(|s| s.name.as_str()).collect();
        let bad_tool = name.is_some_and(|n| !is_tool_name(n));
        if server.is_empty() || !declared.contains(&server) || bad_tool {
            self.diagnostics.push(messages::mcp_selector_unknown_server(&tool.value, server, &declared, &tool.at));
            // Reported: the caller must not read the selector another way.
            return Some(McpToolSelector { server: String::new(), tool: None });
        }
        Some(McpToolSelector { server: server.to_string(), tool: name.filter(|n| *n != "*").map(str::to_string) })
    }
}

/// AB4761: a server named as the shared runtime's (`<plugin>-runtime`), which every host that
/// starts it would list twice. Such servers are taken out of `servers`.
pub fn runtime_clash(servers: &mut Vec<McpServer>, plugin: &str) -> Vec<crate::diagnostic::Diagnostic> {
    let runtime = crate::hosts::layout::shared_runtime_server(plugin);
    let mut found = Vec::new();
    servers.retain(|server| {
        let clash = server.name == runtime;
        if clash {
            found.push(messages::mcp_server_runtime_clash(&server.name, plugin, &server.declared_at));
        }
        !clash
    });
    found
}

/// A host's own root variable written in a server's value (`${CLAUDE_PLUGIN_ROOT}`), which only that
/// host expands.
fn host_root_token(value: &str) -> Option<String> {
    let mut tokens: Vec<&str> = Vec::new();
    for table in hosts::tables() {
        let Some(surface) = &table.hooks else { continue };
        tokens.push(&surface.root_token);
        if let Ok(mcp) = surface.plugin_mcp.supported() {
            tokens.push(&mcp.root_token);
        }
    }
    tokens.into_iter().filter(|t| t.starts_with("${")).find(|t| value.contains(*t)).map(str::to_string)
}
