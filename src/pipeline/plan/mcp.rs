//! Planning the plugin's own MCP servers per host: where each host reads them, the entry written
//! there (with `${pluginRoot}` turned into the host's own root variable), the name the host gives
//! their tools, or why a host gets none. Emit writes what this decides.

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::diagnostic::{Diagnostic, messages};
use crate::hosts::{self, PluginMcp, RootPlace};
use crate::pipeline::normalise::mcp::{McpServer, McpServerSpec, McpToolSelector, PLUGIN_ROOT_TOKEN};
use crate::vocabulary::target::Target;

/// One server on one host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "delivery", rename_all = "lowercase")]
pub enum McpDelivery {
    /// Written into the host's MCP document.
    Placed {
        /// The plugin-relative file that lists it (the host's manifest, or a file of its own).
        document: String,
        /// The key of the servers' object there.
        key: String,
        /// The entry, except a module server's bundle, which emit adds as the first argument:
        /// `node <root>/<bundle>`.
        entry: Value,
        /// The host's name for a tool of the server, `{tool}` standing for the tool's name.
        #[serde(rename = "toolName")]
        tool_name: String,
    },
    /// The host gets no such server, and why.
    Absent { reason: String },
}

/// One server and what each of its hosts gets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct McpPlan {
    pub server: String,
    pub targets: Vec<(Target, McpDelivery)>,
}

impl McpPlan {
    /// What `target` gets, when it is among the server's hosts.
    pub fn on(&self, target: Target) -> Option<&McpDelivery> {
        self.targets.iter().find(|(t, _)| *t == target).map(|(_, d)| d)
    }
}

/// `${pluginRoot}` replaced by the host's own root variable.
fn rooted(value: &str, mcp: &PluginMcp) -> String {
    value.replace(PLUGIN_ROOT_TOKEN, &mcp.root_token)
}

/// A value where the host expands no root variable: the server starts in the root, so
/// `${pluginRoot}/x` is `./x` and `${pluginRoot}` alone is `.` (relative to the folder the server
/// starts in).
fn relative(value: &str) -> Result<String, String> {
    if !value.contains(PLUGIN_ROOT_TOKEN) {
        return Ok(value.to_string());
    }
    if let Some(rest) = value.strip_prefix(PLUGIN_ROOT_TOKEN)
        && !rest.contains(PLUGIN_ROOT_TOKEN)
    {
        return Ok(format!(".{rest}"));
    }
    Err(format!("`{value}`: its `{PLUGIN_ROOT_TOKEN}` is not at the start, and the host expands no root variable there"))
}

fn string_map(map: &std::collections::BTreeMap<String, String>, mcp: &PluginMcp) -> Value {
    Value::Object(map.iter().map(|(k, v)| (k.clone(), Value::String(rooted(v, mcp)))).collect())
}

/// The host's entry for `server`, or why the host cannot take it.
fn entry(server: &McpServer, mcp: &PluginMcp) -> Result<Value, String> {
    let mut entry = Map::new();
    match &server.spec {
        McpServerSpec::Command { command, args, env, cwd } => {
            local(&mut entry, mcp, Some(command), args, env, cwd.as_deref())?;
        }
        McpServerSpec::Module { args, env, .. } => {
            local(&mut entry, mcp, None, args, env, None)?;
        }
        McpServerSpec::Remote { transport, url, headers } => {
            let Some(form) = mcp.remote.get(transport) else {
                let taken: Vec<&str> = mcp.remote.keys().map(String::as_str).collect();
                return Err(if taken.is_empty() {
                    "it takes local servers only (`command` or `module`)".to_string()
                } else {
                    format!("it takes remote servers over {} only", taken.join(" and "))
                });
            };
            entry.insert(form.url_key.clone(), url.clone().into());
            if let Some(kind) = &form.kind {
                entry.insert("type".into(), kind.clone().into());
            }
            if !headers.is_empty() {
                entry.insert("headers".into(), string_map(headers, mcp));
            }
        }
    }
    Ok(Value::Object(entry))
}

/// A local server's keys: `command` (`None`: `node`, whose bundle emit puts first in `args`), `args`,
/// `env`, `cwd`, with the host's root where `${pluginRoot}` is written and the host expands it there;
/// elsewhere such a value is relative to the root (`./…`) and the server starts in the root. Then the
/// host's fixed keys.
fn local(
    entry: &mut Map<String, Value>,
    mcp: &PluginMcp,
    command: Option<&String>,
    args: &[String],
    env: &std::collections::BTreeMap<String, String>,
    cwd: Option<&str>,
) -> Result<(), String> {
    let expands = |place: RootPlace| mcp.root_expanded_in.contains(&place);
    // A module server's bundle is an argument under the root.
    let needs_root_cwd = std::cell::Cell::new(command.is_none() && !expands(RootPlace::Args));
    let write = |value: &str, place: RootPlace| -> Result<String, String> {
        if expands(place) {
            return Ok(rooted(value, mcp));
        }
        let written = relative(value)?;
        if written != value {
            needs_root_cwd.set(true);
        }
        Ok(written)
    };
    let command = match command {
        Some(command) => write(command, RootPlace::Command)?,
        None => "node".to_string(),
    };
    let args = args.iter().map(|a| write(a, RootPlace::Args)).collect::<Result<Vec<_>, _>>()?;
    let env: Map<String, Value> =
        env.iter().map(|(k, v)| Ok((k.clone(), write(v, RootPlace::Env)?.into()))).collect::<Result<_, String>>()?;
    let cwd = match (cwd, needs_root_cwd.get()) {
        (Some(cwd), true) if cwd != PLUGIN_ROOT_TOKEN => {
            return Err(format!(
                "it expands its root variable only in some keys, so a server that names `{PLUGIN_ROOT_TOKEN}` elsewhere must start in it, not in `{cwd}`"
            ));
        }
        (_, true) => match (&mcp.root_cwd, expands(RootPlace::Cwd)) {
            (Some(root_cwd), _) => Some(root_cwd.clone()),
            (None, true) => Some(mcp.root_token.clone()),
            (None, false) => {
                return Err(format!(
                    "it expands no root variable in a server's entry and starts it in the session's folder, so a server that names `{PLUGIN_ROOT_TOKEN}` (as a module server does) cannot reach the plugin's files there"
                ));
            }
        },
        (Some(cwd), false) => Some(write(cwd, RootPlace::Cwd)?),
        (None, false) => None,
    };
    entry.insert("command".into(), command.into());
    if !args.is_empty() || entry["command"] == "node" {
        entry.insert("args".into(), json!(args));
    }
    if !env.is_empty() {
        entry.insert("env".into(), Value::Object(env));
    }
    if let Some(cwd) = cwd {
        entry.insert("cwd".into(), cwd.into());
    }
    entry.extend(mcp.local_fields.clone());
    Ok(())
}

/// Plans every server for its hosts among `built` (the config's targets with hooks). A host that
/// cannot take a server is a warning (AB4766) naming the reason, and the host gets none.
pub fn plan_servers(servers: &[McpServer], plugin: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<McpPlan> {
    let mut plans = Vec::new();
    for server in servers {
        let mut targets = Vec::new();
        let mut unplaced: Vec<(crate::diagnostic::HostName<'static>, String)> = Vec::new();
        for &target in &server.targets {
            let table = hosts::table(target);
            let Some(surface) = &table.hooks else { continue };
            let delivery = match surface.plugin_mcp.supported() {
                Err(reason) => McpDelivery::Absent { reason: reason.to_string() },
                Ok(mcp) => match entry(server, mcp) {
                    Ok(entry) => McpDelivery::Placed {
                        document: mcp.document.clone(),
                        key: mcp.key.clone(),
                        entry,
                        tool_name: mcp.tool_name(plugin, &server.name, "{tool}"),
                    },
                    Err(why) => McpDelivery::Absent { reason: format!("{} {}: {why}", table.host, table.host_version) },
                },
            };
            if let McpDelivery::Absent { reason } = &delivery {
                unplaced.push((table.name(), reason.clone()));
            }
            targets.push((target, delivery));
        }
        if !unplaced.is_empty() {
            diagnostics.push(messages::mcp_server_unplaced(&server.name, &unplaced, &server.declared_at));
        }
        plans.push(McpPlan { server: server.name.clone(), targets });
    }
    plans
}

/// The native matcher alternative of an `mcp:<server>` selector on `target`, or why the host has none:
/// the server is not placed there.
pub fn selector_alternative(
    selector: &McpToolSelector,
    plans: &[McpPlan],
    target: Target,
) -> Result<String, String> {
    let plan = plans.iter().find(|p| p.server == selector.server);
    match plan.and_then(|p| p.on(target)) {
        Some(McpDelivery::Placed { tool_name, .. }) => {
            let tool = selector.tool.as_deref().unwrap_or("*");
            Ok(super::matcher::native_alternative(&tool_name.replace("{tool}", tool)))
        }
        Some(McpDelivery::Absent { reason }) => Err(reason.clone()),
        None => Err(format!("the server `{}` is not declared for this host (its `targets`)", selector.server)),
    }
}
