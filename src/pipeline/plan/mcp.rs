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
    pub targets: Vec<McpTarget>,
}

/// What one host gets of a server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct McpTarget {
    pub target: Target,
    #[serde(flatten)]
    pub delivery: McpDelivery,
}

impl McpPlan {
    /// What `target` gets, when it is among the server's hosts.
    pub fn on(&self, target: Target) -> Option<&McpDelivery> {
        self.targets.iter().find(|t| t.target == target).map(|t| &t.delivery)
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
    Err(format!(
        "`{value}`: its `{PLUGIN_ROOT_TOKEN}` is not at the start, and the host expands no root variable there"
    ))
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
            targets.push(McpTarget { target, delivery });
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
pub fn selector_alternative(selector: &McpToolSelector, plans: &[McpPlan], target: Target) -> Result<String, String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::source::Location;

    fn server(spec: McpServerSpec) -> McpServer {
        McpServer {
            name: "docs".into(),
            targets: Target::ALL.into_iter().filter(|t| hosts::table(*t).has_hooks()).collect(),
            spec,
            declared_at: Location {
                file: "agent-bundle.config.ts".into(),
                line: 1,
                column: 1,
                span: Default::default(),
            },
        }
    }

    fn planned(spec: McpServerSpec) -> (McpPlan, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let mut plans = plan_servers(&[server(spec)], "my-plugin", &mut diagnostics);
        (plans.remove(0), diagnostics)
    }

    fn placed(plan: &McpPlan, target: Target) -> &Value {
        match plan.on(target) {
            Some(McpDelivery::Placed { entry, .. }) => entry,
            other => panic!("{target}: {other:?}"),
        }
    }

    /// `${pluginRoot}` becomes each host's own variable where it expands one, and a path relative to
    /// the root where the server starts in it (Codex); a host that can reach the root nowhere gets no
    /// such server, and says why.
    #[test]
    fn each_host_gets_its_own_root_or_a_reason() {
        let (plan, diagnostics) = planned(McpServerSpec::Module {
            module: "src/mcp/server.ts".into(),
            args: vec!["--data".into(), "${pluginRoot}/data".into()],
            env: [("ROOT".to_string(), "${pluginRoot}".to_string())].into(),
        });
        let claude = placed(&plan, Target::Claude);
        assert_eq!(claude["command"], "node");
        assert_eq!(claude["args"], json!(["--data", "${CLAUDE_PLUGIN_ROOT}/data"]), "emit puts the bundle first");
        assert_eq!(claude["env"]["ROOT"], "${CLAUDE_PLUGIN_ROOT}");
        assert!(claude.get("cwd").is_none());
        let gemini = placed(&plan, Target::Gemini);
        assert_eq!(gemini["env"]["ROOT"], "${extensionPath}");
        let codex = placed(&plan, Target::Codex);
        assert_eq!(codex["args"], json!(["--data", "./data"]));
        assert_eq!(codex["env"]["ROOT"], ".");
        assert_eq!(codex["cwd"], "./", "the server starts in the root");
        for target in [Target::Droid, Target::Opencode] {
            assert!(matches!(plan.on(target), Some(McpDelivery::Absent { .. })), "{target}");
        }
        assert_eq!(diagnostics.len(), 1, "one warning for the server: {diagnostics:?}");
        assert_eq!(diagnostics[0].code, crate::diagnostic::Code::McpServerUnplaced);
    }

    /// A program that needs nothing of the plugin's is written as declared, on Factory Droid too.
    #[test]
    fn a_server_that_names_no_root_is_placed_as_written() {
        let (plan, _) = planned(McpServerSpec::Command {
            command: "npx".into(),
            args: vec!["-y".into(), "docs-index".into()],
            env: Default::default(),
            cwd: None,
        });
        for target in [Target::Claude, Target::Codex, Target::Droid, Target::Copilot] {
            let entry = placed(&plan, target);
            assert_eq!((entry["command"].as_str(), &entry["args"]), (Some("npx"), &json!(["-y", "docs-index"])));
            assert!(entry.get("cwd").is_none(), "{target}");
        }
        // A declared `cwd` elsewhere than the root, with the root in the arguments: Codex cannot.
        let (plan, _) = planned(McpServerSpec::Command {
            command: "node".into(),
            args: vec!["${pluginRoot}/server.js".into()],
            env: Default::default(),
            cwd: Some("/tmp".into()),
        });
        assert!(matches!(plan.on(Target::Codex), Some(McpDelivery::Absent { .. })));
        assert_eq!(placed(&plan, Target::Claude)["cwd"], "/tmp");
    }

    /// Remote servers take each host's keys, and a transport a host lacks is a reason.
    #[test]
    fn remote_servers_take_each_hosts_keys() {
        let (plan, _) = planned(McpServerSpec::Remote {
            transport: "http".into(),
            url: "https://mcp.example.com/mcp".into(),
            headers: [("Authorization".to_string(), "Bearer ${TOKEN}".to_string())].into(),
        });
        assert_eq!(
            placed(&plan, Target::Claude),
            &json!({ "type": "http", "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer ${TOKEN}" } })
        );
        assert_eq!(placed(&plan, Target::Gemini)["httpUrl"], "https://mcp.example.com/mcp");
        let (plan, _) = planned(McpServerSpec::Remote {
            transport: "sse".into(),
            url: "https://x/sse".into(),
            headers: Default::default(),
        });
        match plan.on(Target::Codex) {
            Some(McpDelivery::Absent { reason }) => assert!(reason.contains("http only"), "{reason}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(placed(&plan, Target::Gemini)["url"], "https://x/sse");
    }

    /// `mcp:<server>` is each host's own tool name, anchored, with the tool or any tool.
    #[test]
    fn a_selector_of_the_plugins_server_is_each_hosts_tool_name() {
        let (plan, _) = planned(McpServerSpec::Command {
            command: "npx".into(),
            args: Vec::new(),
            env: Default::default(),
            cwd: None,
        });
        let plans = [plan];
        let lookup = McpToolSelector { server: "docs".into(), tool: Some("lookup".into()) };
        let every = McpToolSelector { server: "docs".into(), tool: None };
        let expected = [
            (Target::Claude, "mcp__plugin_my-plugin_docs__lookup"),
            (Target::Codex, "mcp__docs__lookup"),
            (Target::Copilot, "docs-lookup"),
            (Target::Gemini, "mcp_docs_lookup"),
            (Target::Qwen, "mcp__docs__lookup"),
            (Target::Droid, "docs___lookup"),
        ];
        for (target, name) in expected {
            let alternative = selector_alternative(&lookup, &plans, target).unwrap();
            let matcher = regex::Regex::new(&format!("^(?:{alternative})$")).unwrap();
            assert!(matcher.is_match(name), "{target}: {alternative} against {name}");
            assert!(!matcher.is_match(&format!("{name}2")), "{target}: {alternative}");
            let any = selector_alternative(&every, &plans, target).unwrap();
            let any = regex::Regex::new(&format!("^(?:{any})$")).unwrap();
            assert!(any.is_match(name) && !any.is_match("Bash"), "{target}");
        }
        assert!(selector_alternative(&lookup, &plans, Target::Opencode).is_err());
    }
}
