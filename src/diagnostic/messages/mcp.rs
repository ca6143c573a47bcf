//! The plugin's own MCP servers and the `mcp:<server>` selectors that name their tools.

use super::{list, not_placed};
use crate::diagnostic::{Code, Diagnostic, HookSite, HostName};
use crate::vocabulary::source::Location;

pub fn mcp_server_name(name: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::McpServerName, format!("MCP server name `{name}` is not one every host can carry"))
        .at(Some(at), "this name")
        .note("hosts build the names of the server's tools from it (`mcp__plugin_<plugin>_<server>__<tool>`, `mcp_<server>_<tool>`, …), and some change or refuse other characters")
        .hint("use letters, digits, `_` and `-`, starting with a letter or digit, at most 64 characters (`docs-index`)")
}

pub fn mcp_server_runtime_clash(name: &str, plugin: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::McpServerRuntimeClash,
        format!("MCP server `{name}` has the name of plugin `{plugin}`'s shared runtime server"),
    )
    .at(Some(at), "taken by the shared runtime")
    .note("agent-bundle writes the server that hosts shared routes as `<plugin>-runtime` into the same MCP documents")
    .hint(format!("rename the server (`{plugin}-tools`)"))
}

pub fn mcp_server_shape(name: &str, why: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::McpServerShape, format!("MCP server `{name}` is not one kind of server: {why}"))
        .at(Some(at), "here")
        .note("a server is a program (`command`, `args`, `env`, `cwd`), a module of the bundle (`module`, `args`, `env`) or a remote server (`type: 'http' | 'sse'`, `url`, `headers`)")
        .hint("keep the keys of one kind: `{ module: './src/mcp/server.ts' }`, `{ command: 'npx', args: ['-y', 'pkg'] }` or `{ type: 'http', url: 'https://…' }`")
}

pub fn mcp_server_module(name: &str, written: &str, why: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::McpServerModule, format!("MCP server `{name}`'s module `{written}` cannot be bundled: {why}"))
        .at(Some(at), "this module")
        .note("a server's module is bundled like a handler, with what it imports, and started with `node`")
        .hint(
            "name a `.ts`, `.mts`, `.js` or `.mjs` file inside the bundle root, relative to it (`./src/mcp/server.ts`)",
        )
}

pub fn mcp_server_remote(name: &str, written: &str, allowed: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::McpServerRemote, format!("MCP server `{name}`: {written} is not what a host takes"))
        .at(Some(at), format!("expected {allowed}"))
        .hint(format!("write {allowed}"))
}

pub fn mcp_server_host_root(name: &str, token: &str, portable: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::McpServerHostRoot, format!("MCP server `{name}` names `{token}`, which only one host expands"))
        .at(Some(at), format!("`{token}` here"))
        .note("each host names the plugin's root with a variable of its own; the others would start the server with the text as written")
        .hint(format!("write `{portable}`: agent-bundle writes each host's own root variable in its place"))
}

/// `unplaced`: each host (as named) with why it gets no such server.
pub fn mcp_server_unplaced(name: &str, unplaced: &[(HostName, String)], at: &Location) -> Diagnostic {
    not_placed(Code::McpServerUnplaced, &format!("MCP server `{name}`"), unplaced, (at, "this server"), |targets| {
        format!("give the server `targets` without {targets}, or accept that the model has no such tools there")
    })
}

pub fn mcp_selector_unknown_server(written: &str, server: &str, declared: &[&str], at: &Location) -> Diagnostic {
    let known = if declared.is_empty() {
        "the config declares no `mcpServers`".to_string()
    } else {
        format!("declared: {}", list(declared))
    };
    let message = if declared.contains(&server) {
        format!("selector `{written}` names a tool with characters no tool name has")
    } else {
        format!("selector `{written}` names no server of `mcpServers`")
    };
    let mut diagnostic = Diagnostic::new(Code::McpSelectorUnknownServer, message).at(Some(at), known);
    if let Some(meant) = crate::vocabulary::suggest::did_you_mean(server, declared.iter().copied())
        .filter(|_| !declared.contains(&server))
    {
        diagnostic = diagnostic.note(format!("did you mean `mcp:{meant}`?"));
    }
    diagnostic.hint("write `mcp:<server>` (every tool of one of the plugin's servers) or `mcp:<server>/<tool>`, or `mcp` for every MCP tool")
}

pub fn mcp_selector_unplaced(
    hook: &HookSite,
    written: &str,
    at: Option<&Location>,
    table: &HostName,
    reason: &str,
) -> Diagnostic {
    Diagnostic::new(
        Code::McpSelectorUnplaced,
        format!("selector `{written}` of hook `{}` names a server {} {} does not get", hook.name, table.host, table.version),
    )
    .at(Some(hook.declared_at), "in this hook")
    .at(at.or(hook.tools_at), format!("`{written}` has no tools on `{}`", table.target))
    .for_target(table.target)
    .note(reason.to_string())
    .hint(format!(
        "narrow this hook's `targets`, or set `onMissingSelector: 'skip-selector'` beside a canonical selector, so that `{}` is left out",
        table.target
    ))
}
