//! The Event and hook matrix (D5 in docs/decisions.md): rendered from the host tables alone, so the README and
//! `cargo agent-bundle matrix` can never disagree with what the compiler does.

use std::fmt::Write as _;

use crate::hosts::{self, HostTable, PartSupport, ResultChannels, WindowsForm, answer};
use crate::vocabulary::canonical::{CanonicalEvent, ResultPart, Selector};
use crate::vocabulary::hook_event::HookEvent;
use crate::vocabulary::target::Target;

fn hook_hosts() -> Vec<&'static HostTable> {
    Target::ALL.iter().map(|t| hosts::table(*t)).filter(|t| t.has_hooks()).collect()
}

fn header(first: &str, hosts: &[&HostTable]) -> String {
    let mut line = format!("| {first} |");
    let mut rule = String::from("|---|");
    for host in hosts {
        // A host that also loads a hooks module (Claude Code's mods) is a column of its own.
        let module = host.hooks.as_ref().and_then(|h| h.hooks_module.as_ref()).map_or("", |_| " (hooks module)");
        let _ = write!(line, " {} {}{module} |", host.host, host.host_version);
        rule.push_str("---|");
    }
    format!("{line}\n{rule}\n")
}

/// One row of a host table: each host's cell, or a footnote number pointing at the recorded reason.
fn table_row<'t>(
    out: &mut String,
    reasons: &mut Vec<String>,
    item: impl std::fmt::Display,
    hosts: &[&'t HostTable],
    cell: impl Fn(&'t HostTable) -> Result<String, &'t str>,
) {
    let _ = write!(out, "| `{item}` |");
    for host in hosts {
        match cell(host) {
            Ok(text) => {
                let _ = write!(out, " {text} |");
            }
            Err(reason) => {
                reasons.push(format!("{} has no `{item}`: {reason}", host.host));
                let _ = write!(out, " — ({}) |", reasons.len());
            }
        }
    }
    out.push('\n');
}

/// A Results cell line for a part the host delivers: the fields it is written as.
fn delivered(result: &ResultChannels, part: ResultPart) -> String {
    let mut line = format!("{}: {}", part.short(), answer::describe(&answer::writes(result, part)));
    if let (ResultPart::Deny, Some(condition)) = (part, &result.deny_when) {
        line.push_str(&format!(" when `{}` is {}", condition.key, condition.equals));
    }
    line
}

/// The Results cell of one host and event (a config event or a route family): each part the event
/// admits, as [`HostTable::result_part`] decides it for config hooks and routes alike, with a
/// footnote for every part that is not delivered.
fn result_cell(host: &HostTable, event: HookEvent, mapping: &hosts::EventMapping, reasons: &mut Vec<String>) -> String {
    let mut parts = vec!["continue".to_string()];
    for part in ResultPart::ALL {
        if event.refuses(part).is_some() {
            continue;
        }
        let (host_name, described) = (&host.host, part.described());
        let (cell, footnote) = match host.result_part(event, part) {
            PartSupport::Deliver => {
                parts.push(delivered(&mapping.result, part));
                continue;
            }
            PartSupport::Drop(reason) => ("dropped", format!("{host_name} drops {described} on `{event}`: {reason}")),
            PartSupport::Refuse(reason) => {
                ("refused", format!("{host_name} refuses {described} on `{event}`: {reason}"))
            }
            PartSupport::Block { reason, exit } => (
                "blocks",
                format!(
                    "{host_name} blocks the call (exit {exit}) for {described} on `{event}`, which it cannot carry: {reason}"
                ),
            ),
        };
        reasons.push(footnote);
        parts.push(format!("{}: *{cell}* ({})", part.short(), reasons.len()));
    }
    parts.join("<br>")
}

/// A fail-closed entry's own keys as the matrix shows them: `` `onFailure: "block"` ``.
fn entry_keys(entry: &serde_json::Map<String, serde_json::Value>) -> String {
    entry.iter().map(|(k, v)| format!("`{k}: {v}`")).collect::<Vec<_>>().join(", ")
}

/// Every canonical payload field of any family, in first-seen family order.
fn payload_fields() -> Vec<&'static str> {
    let mut fields: Vec<&str> = Vec::new();
    for family in crate::vocabulary::family::FAMILIES {
        for field in family.payload {
            if !fields.contains(field) {
                fields.push(field);
            }
        }
    }
    fields
}

/// The native keys a host reads `field` from, over every family whose payload has it, sorted.
fn native_keys(host: &HostTable, field: &str) -> Vec<String> {
    let Some(surface) = &host.hooks else { return Vec::new() };
    let mut keys: Vec<String> = crate::vocabulary::family::FAMILIES
        .iter()
        .filter(|family| family.payload.contains(&field))
        .filter_map(|family| host.family(*family).ok())
        .flat_map(|mapping| surface.input_fields(mapping))
        .filter(|input| input.canonical.as_deref() == Some(field))
        .flat_map(|input| std::iter::once(input.key.clone()).chain(input.alternatives.iter().cloned()))
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// Every (event, canonical field) a config handler can receive, in event order and each event's
/// first-seen field order (the types' order), with the native keys each host reads it from (empty:
/// the host does not send it there).
fn config_fields(host: &HostTable, event: CanonicalEvent, field: &str) -> Vec<String> {
    let (Some(surface), Ok(mapping)) = (&host.hooks, host.event(event)) else { return Vec::new() };
    surface
        .input_fields(mapping)
        .filter(|input| input.canonical.as_deref() == Some(field))
        .flat_map(|input| std::iter::once(input.key.clone()).chain(input.alternatives.iter().cloned()))
        .collect()
}

fn config_field_rows() -> Vec<(CanonicalEvent, String)> {
    CanonicalEvent::ALL
        .iter()
        .flat_map(|event| crate::tools::types::config_field_names(*event).into_iter().map(move |field| (*event, field)))
        .collect()
}

/// How a host's tools of one kind map to the canonical tool fields: `Name`: field←key, … per tool.
fn tool_cell(host: &HostTable, selector: crate::vocabulary::canonical::Selector) -> Result<Vec<String>, &str> {
    let mapping = host.selector(selector)?;
    Ok(mapping
        .matches
        .iter()
        .map(|pattern| {
            let input = &mapping.input[pattern];
            let value = serde_json::to_value(input).expect("tables serialise");
            let fields: Vec<String> = value
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(field, _)| field.as_str() != "optional")
                .map(|(field, keys)| match keys {
                    serde_json::Value::String(key) => format!("{field}←{key}"),
                    serde_json::Value::Array(keys) => {
                        format!("{field}←{}", keys.iter().filter_map(|k| k.as_str()).collect::<Vec<_>>().join("|"))
                    }
                    _ => field.clone(),
                })
                .collect();
            if fields.is_empty() { format!("`{pattern}`") } else { format!("`{pattern}` ({})", fields.join(", ")) }
        })
        .collect())
}

/// The matrix as Markdown.
pub fn markdown() -> String {
    let hosts = hook_hosts();
    let mut reasons: Vec<String> = Vec::new();
    let mut out = String::new();

    out.push_str("**Events**: what each host receives for a config-declared hook.\n\n");
    out.push_str(&header("canonical event", &hosts));
    for event in CanonicalEvent::ALL {
        table_row(&mut out, &mut reasons, event, &hosts, |host| {
            host.event(event).map(|m| match host.module_mapping(event.into()) {
                Some(module) => format!("`{}` in the module, else `{}`", module.native, m.native),
                None => format!("`{}`", m.native),
            })
        });
    }

    out.push_str(
        "\n**Event routes**: the native event each route family (`src/events/<family>.tsx`) reaches. Routes are\n",
    );
    out.push_str("built like config hooks, each into a wrapper per host.\n\n");
    out.push_str(&header("family", &hosts));
    for family in crate::vocabulary::family::FAMILIES {
        table_row(&mut out, &mut reasons, family, &hosts, |host| {
            host.family(family).map(|m| format!("`{}`", m.native))
        });
    }
    out.push_str("\n**Tool selectors**: the names each host's matcher accepts (joined as `^(?:…)$`).\n\n");
    out.push_str(&header("selector", &hosts));
    for selector in Selector::ALL {
        table_row(&mut out, &mut reasons, selector, &hosts, |host| {
            host.selector(selector)
                .map(|m| m.matches.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", "))
        });
    }

    out.push_str(
        "\n**Results**: what a handler may return on each event, and how each host receives it. A part marked\n",
    );
    out.push_str(
        "*dropped* is legal but has no channel on that host: the wrapper delivers the rest (a denial above all)\n",
    );
    out.push_str("and names what it dropped in one note on stderr. A part marked *blocks* is a denial, an ask or a\n");
    out.push_str("rewrite the host cannot carry there: the wrapper blocks the call through the host's blocking exit\n");
    out.push_str("rather than lose it. A part marked *refused* fails the hook there.\n\n");
    out.push_str(&header("event", &hosts));
    for event in CanonicalEvent::ALL {
        let _ = write!(out, "| `{event}` |");
        for host in &hosts {
            let Ok(mapping) = host.event(event) else {
                out.push_str(" — |");
                continue;
            };
            let _ = write!(out, " {} |", result_cell(host, event.into(), mapping, &mut reasons));
        }
        out.push('\n');
    }
    out.push_str("\nIllegal on every host (the hook fails): ");
    let mut rules: Vec<&str> =
        CanonicalEvent::ALL.iter().flat_map(|e| ResultPart::ALL.iter().filter_map(move |p| e.refuses(*p))).collect();
    rules.sort_unstable();
    rules.dedup();
    out.push_str(&rules.join("; "));
    out.push_str(".\n");

    out.push_str(
        "\n**Fail-closed guards** (`failClosed: true` on beforeTool): how a failure of the hook blocks the tool.\n\n",
    );
    out.push_str(&header("failure", &hosts));
    out.push_str("| caught by the wrapper (throw, bad result, bad stdin, its deadline) |");
    for host in &hosts {
        let cell = host
            .event(CanonicalEvent::BeforeTool)
            .ok()
            .and_then(|m| m.fail_closed.as_ref())
            .map_or_else(|| "—".to_string(), |how| format!("exit {}, the reason on stderr", how.exit));
        let _ = write!(out, " {cell} |");
    }
    out.push_str("\n| not caught (the host's kill at its timeout, a crash before the wrapper runs) |");
    for host in &hosts {
        let how = host.event(CanonicalEvent::BeforeTool).ok().and_then(|m| m.fail_closed.as_ref());
        match how.and_then(|h| h.entry.as_ref()) {
            Some(entry) => {
                let _ = write!(out, " {} in the entry |", entry_keys(entry));
            }
            None => {
                let uncovered = how.and_then(|h| h.uncovered.as_deref()).unwrap_or("the host has no failure field");
                reasons.push(format!("{}: {uncovered}", host.host));
                let _ = write!(out, " fails open ({}) |", reasons.len());
            }
        }
    }
    out.push('\n');
    out.push_str(
        "\nA route of a family that can deny may be fail-closed too (`failClosed: true` in its `config`) on the\n",
    );
    out.push_str("hosts whose table records how its event blocks; elsewhere the build refuses it (AB4236).\n\n");
    out.push_str(&header("fail-closed route", &hosts));
    for family in crate::vocabulary::family::FAMILIES.iter().filter(|f| f.deny) {
        let _ = write!(out, "| `{family}` |");
        for host in &hosts {
            let cell = match host.family(*family) {
                Err(_) => "—".to_string(),
                Ok(mapping) => match &mapping.fail_closed {
                    Some(how) => match &how.entry {
                        Some(entry) => format!("exit {}; {} in the entry", how.exit, entry_keys(entry)),
                        None => format!("exit {}", how.exit),
                    },
                    None => "refused (AB4236)".to_string(),
                },
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }

    out.push_str(
        "\n**Route results**: what a route may render on each host (`<Agent.Result value>` for the outcome,\n",
    );
    out.push_str("`<Agent.Context>` for context) and the fields it is written as, decided per part exactly as for\n");
    out.push_str(
        "config hooks (*dropped*, *blocks*, *refused* as above). What the family cannot take fails the route.\n\n",
    );
    out.push_str(&header("family", &hosts));
    for family in crate::vocabulary::family::FAMILIES {
        let _ = write!(out, "| `{family}` |");
        for host in &hosts {
            let Ok(mapping) = host.family(family) else {
                out.push_str(" — |");
                continue;
            };
            let cell = if family.observes_only() {
                "observes only".to_string()
            } else {
                result_cell(host, HookEvent::Route(family), mapping, &mut reasons)
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }

    out.push_str(
        "\n**Route payload fields**: the native key each canonical payload field (`canonical.payload.<field>`,\n",
    );
    out.push_str("as `{ value, nativeKey }`) is read from; a field a host does not send is absent.\n\n");
    out.push_str(&header("field", &hosts));
    for field in payload_fields() {
        let _ = write!(out, "| `{field}` |");
        for host in &hosts {
            let keys = native_keys(host, field);
            let cell = if keys.is_empty() {
                "—".to_string()
            } else {
                keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }

    out.push_str(
        "\n**Config payload fields**: the native key each field a config handler receives is read from, per\n",
    );
    out.push_str("event; a field a host does not send there is absent from the payload (—).\n\n");
    out.push_str(&header("event: field", &hosts));
    for (event, field) in config_field_rows() {
        let _ = write!(out, "| `{event}`: `{field}` |");
        for host in &hosts {
            let keys = config_fields(host, event, &field);
            let cell = if field == "tool" && host.event(event).is_ok() {
                "from the tool's name and input (below)".to_string()
            } else if let Some((_, canonical)) =
                crate::vocabulary::canonical::PAYLOAD_ALIASES.iter().find(|(old, _)| *old == field)
            {
                let keys = config_fields(host, event, canonical);
                if keys.is_empty() { "—".to_string() } else { format!("old name of `{canonical}`") }
            } else if keys.is_empty() {
                "—".to_string()
            } else {
                keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }

    out.push_str("\n**Canonical tool**: which native tools each `tool.kind` stands for, and the native key (in the\n");
    out.push_str("tool's input) of each canonical field: `command`, `cwd`, `filePath`, `content`, `edits`, `patch`,\n");
    out.push_str("the MCP name split (`mcpName`) or context (`mcpContext`). A tool none of these name is `other`.\n\n");
    out.push_str(&header("tool.kind", &hosts));
    for selector in crate::vocabulary::canonical::Selector::ALL {
        table_row(&mut out, &mut reasons, selector.name(), &hosts, |host| {
            tool_cell(host, selector).map(|tools| tools.join("; ").replace('|', "\\|"))
        });
    }

    out.push_str(
        "\n**Shared runtime**: where the plugin declares the MCP server that renders `runtime: 'shared'` routes.\n\n",
    );
    out.push_str(&header("document", &hosts));
    table_row(&mut out, &mut reasons, "mcpServers", &hosts, |host| {
        let surface = host.hooks.as_ref().expect("hook hosts have hooks");
        surface.mcp_server.supported().map(|d| format!("`{}`", d.document))
    });

    out.push_str("\n**The plugin's MCP servers** (`mcpServers`): where each host reads them, how `${pluginRoot}`\n");
    out.push_str("reaches a server, the name the host gives a tool of the plugin's server `<server>` (what an\n");
    out.push_str("`mcp:<server>` selector matches), and where each fact comes from (*observed*: the real-host suite\n");
    out.push_str("ran a module server there, the model called its tool and a hook saw that name).\n\n");
    out.push_str(&header("plugin MCP", &hosts));
    fn plugin_mcp(host: &HostTable) -> Result<&hosts::PluginMcp, &str> {
        host.hooks.as_ref().expect("hook hosts have hooks").plugin_mcp.supported()
    }
    let mcp_marked =
        |mcp: &hosts::PluginMcp, text: String| format!("{} *({})*", text.replace('|', "\\|"), mcp.proof.word());
    table_row(&mut out, &mut reasons, "document", &hosts, |host| {
        plugin_mcp(host).map(|mcp| {
            let pointer = mcp
                .manifest_pointer
                .as_ref()
                .map(|key| format!(", named by the manifest's `{key}`"))
                .unwrap_or_default();
            mcp_marked(mcp, format!("`{}` `{}`{pointer}", mcp.document, mcp.key))
        })
    });
    table_row(&mut out, &mut reasons, "root", &hosts, |host| {
        plugin_mcp(host).map(|mcp| {
            let places: Vec<String> = mcp
                .root_expanded_in
                .iter()
                .map(|p| {
                    format!("`{}`", serde_json::to_value(p).expect("places serialise").as_str().unwrap_or_default())
                })
                .collect();
            let text = match (places.is_empty(), &mcp.root_cwd) {
                (false, _) if places.len() == 4 => format!("`{}`", mcp.root_token),
                (false, _) => format!(
                    "`{}` in {}; elsewhere `./…`, the server started in the root",
                    mcp.root_token,
                    places.join(", ")
                ),
                (true, Some(cwd)) => format!("`./…`, the server started in the root (`cwd: {cwd}`)"),
                (true, None) => "none: a server that needs the plugin's files is not placed".to_string(),
            };
            mcp_marked(mcp, text)
        })
    });
    table_row(&mut out, &mut reasons, "remote", &hosts, |host| {
        plugin_mcp(host).map(|mcp| {
            let kinds: Vec<String> = mcp.remote.keys().map(|k| format!("`{k}`")).collect();
            if kinds.is_empty() { "—".to_string() } else { kinds.join(", ") }
        })
    });
    table_row(&mut out, &mut reasons, "tool name", &hosts, |host| {
        plugin_mcp(host).map(|mcp| mcp_marked(mcp, format!("`{}`", mcp.tool_name("<plugin>", "<server>", "<tool>"))))
    });
    let _ = write!(out, "| `evidence` |");
    for host in &hosts {
        match plugin_mcp(host) {
            Ok(mcp) => {
                reasons.push(format!("{}'s plugin MCP servers ({}): {}", host.host, mcp.proof.word(), mcp.evidence));
                let _ = write!(out, " ({}) |", reasons.len());
            }
            Err(_) => {
                let _ = write!(out, " — |");
            }
        }
    }
    out.push('\n');

    out.push_str(
        "\n**Plugin parts** (`skills`, `commands`, `agents`, `contextFile`): where each host reads them in its\n",
    );
    out.push_str("plugin folder, the manifest key that names the place where the host reads it only then, the form\n");
    out.push_str(
        "of each file there, how a user reaches one, and how that is known (*observed*: the real-host suite\n",
    );
    out.push_str("saw the host hand it to the model).\n\n");
    out.push_str(&header("part", &hosts));
    for kind in crate::vocabulary::part::PartKind::ALL {
        table_row(&mut out, &mut reasons, kind.key(), &hosts, |host| {
            let surface = host.hooks.as_ref().expect("hook hosts have hooks");
            surface.plugin_parts.get(kind).supported().map(|place| {
                let folder = match (&surface.folder, place.folder.as_str()) {
                    (Some(own), "") => format!("{own}/"),
                    (Some(own), folder) => format!("{own}/{folder}/"),
                    (None, "") => "the root".to_string(),
                    (None, folder) => format!("{folder}/"),
                };
                let mut text = if folder == "the root" { folder } else { format!("`{folder}`") };
                if let Some(pointer) = &place.manifest_pointer {
                    let _ = write!(text, ", named by the manifest's `{}`", pointer.key);
                }
                if place.format == crate::hosts::parts::PartFormat::GeminiToml {
                    text.push_str(", as TOML");
                }
                if let Some(suffix) = place.suffix.as_deref().filter(|s| *s != ".md") {
                    let _ = write!(text, ", `<name>{suffix}`");
                }
                if let Some(invoked) = &place.invoked_as {
                    let _ = write!(text, "; `{}`", invoked.replace("{plugin}", "<plugin>").replace("{name}", "<name>"));
                }
                format!("{} *({})*", text.replace('|', "\\|"), place.proof.word())
            })
        });
    }
    table_row(&mut out, &mut reasons, "interface", &hosts, |host| {
        let surface = host.hooks.as_ref().expect("hook hosts have hooks");
        if surface.manifest_interface.is_empty() {
            Ok("—".to_string())
        } else {
            Ok(surface.manifest_interface.keys().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "))
        }
    });
    let _ = write!(out, "| `evidence` |");
    for host in &hosts {
        let surface = host.hooks.as_ref().expect("hook hosts have hooks");
        let found: Vec<String> = crate::vocabulary::part::PartKind::ALL
            .iter()
            .filter_map(|kind| {
                surface.plugin_parts.get(*kind).supported().ok().map(|p| format!("{kind}: {}", p.evidence))
            })
            .collect();
        if found.is_empty() {
            let _ = write!(out, " — |");
        } else {
            reasons.push(format!("{}'s plugin parts: {}", host.host, found.join("; ")));
            let _ = write!(out, " ({}) |", reasons.len());
        }
    }
    out.push('\n');

    out.push_str(
        "\n**Places**: where a handler's `context.dataDir` and `context.projectDir` come from on each host (the\n",
    );
    out.push_str(
        "first variable set wins, then the envelope's keys; with no data variable, agent-bundle's own folder,\n",
    );
    out.push_str("`$XDG_DATA_HOME/agent-bundle/plugins/<plugin>`), and how that is known.\n\n");
    out.push_str(&header("context", &hosts));
    let names = |names: &[String]| names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    fn places(host: &HostTable) -> &crate::hosts::Places {
        &host.hooks.as_ref().expect("hook hosts have hooks").places
    }
    table_row(&mut out, &mut reasons, "dataDir", &hosts, |host| {
        let found = names(&places(host).data_env);
        Ok(if found.is_empty() {
            "agent-bundle's folder".to_string()
        } else {
            format!("{found}, else agent-bundle's folder")
        })
    });
    table_row(&mut out, &mut reasons, "projectDir", &hosts, |host| {
        let places = places(host);
        let keys: Vec<String> = places.project_keys.iter().map(|k| format!("envelope `{k}`")).collect();
        let variables = names(&places.project_env);
        Ok([variables].into_iter().filter(|v| !v.is_empty()).chain(keys).collect::<Vec<_>>().join(", then "))
    });
    table_row(&mut out, &mut reasons, "proof", &hosts, |host| Ok(places(host).proof.word().to_string()));

    out.push_str(
        "\n**Entry options**: the key each host's entries take an entry option as, and how that is known. A\n",
    );
    out.push_str(
        "`statusMessage` where there is none is not shown; an `async` hook where there is none still does not\n",
    );
    out.push_str("hold the host up: its wrapper answers at once and runs the handler detached.\n\n");
    out.push_str(&header("option", &hosts));
    let option = |support: &'static crate::hosts::Support<crate::hosts::EntryOption>| {
        support.supported().map(|o| format!("`{}` ({})", o.key, o.proof.word()))
    };
    table_row(&mut out, &mut reasons, "statusMessage", &hosts, |host| {
        option(&host.hooks.as_ref().expect("hook hosts have hooks").entry_options.status_message)
    });
    table_row(&mut out, &mut reasons, "async", &hosts, |host| {
        option(&host.hooks.as_ref().expect("hook hosts have hooks").entry_options.run_async)
    });

    out.push_str(
        "\n**Extra answers**: what a config handler's `extra` may carry beyond the canonical parts, and where\n",
    );
    out.push_str(
        "each host takes it (a field of its answer, or a file it sources later), on which of its events, and how\n",
    );
    out.push_str(
        "that is known; where a host has none the wrapper drops it with a note. `env` is sessionStart's only.\n\n",
    );
    out.push_str(&header("extra", &hosts));
    for extra in crate::vocabulary::canonical::Extra::ALL {
        table_row(&mut out, &mut reasons, extra.name(), &hosts, |host| {
            let surface = host.hooks.as_ref().expect("hook hosts have hooks");
            let how = surface.answer_extras.get(&extra).ok_or("not in its table")?.supported()?;
            let write = match &how.write {
                crate::hosts::ExtraWrite::Field(path) => format!("`{path}`"),
                crate::hosts::ExtraWrite::EnvFile(variable) => format!("`export` lines in `${variable}`"),
            };
            let events = if how.events.is_empty() { "every event".to_string() } else { how.events.join(", ") };
            Ok(format!("{write} on {events} ({})", how.proof.word()))
        });
    }

    out.push_str(
        "\n**On Windows**: what runs a hook's command there, what agent-bundle writes so that every shell the\n",
    );
    out.push_str(
        "host may use parses it (no POSIX-only syntax: a guard whose command a shell cannot parse never runs),\n",
    );
    out.push_str("how the plugin's root reaches it, and where each fact comes from: *observed* (the host's Windows\n");
    out.push_str("build ran it here, under Wine), *source-derived* (read in the host's published code),\n");
    out.push_str("*docs-derived*, or *unverified* (nothing to run or read). There is no handover of the answer\n");
    out.push_str("channel on Windows: the wrapper answers on stdout and keeps its handler's writes off it itself.\n\n");
    out.push_str(&header("on Windows", &hosts));
    fn windows(host: &HostTable) -> &hosts::WindowsRun {
        &host.hooks.as_ref().expect("hook hosts have hooks").windows
    }
    let marked =
        |host: &HostTable, text: &str| format!("{} *({})*", text.replace('|', "\\|"), windows(host).proof.word());
    table_row(&mut out, &mut reasons, "runs the command", &hosts, |host| Ok(marked(host, &windows(host).shell)));
    table_row(&mut out, &mut reasons, "agent-bundle writes", &hosts, |host| {
        Ok(marked(
            host,
            &windows_form(&windows(host).form, &host.hooks.as_ref().expect("hook hosts have hooks").root_token),
        ))
    });
    table_row(&mut out, &mut reasons, "plugin root", &hosts, |host| Ok(marked(host, &windows(host).root)));
    table_row(&mut out, &mut reasons, "install places", &hosts, |host| {
        Ok(match hosts::distribution::windows_places(host.target) {
            Some(places) => places.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ").replace('|', "\\|"),
            None => "— (`install` does not drive it)".to_string(),
        })
    });
    let _ = write!(out, "| `evidence` |");
    for host in &hosts {
        reasons.push(format!("{} on Windows ({}): {}", host.host, windows(host).proof.word(), windows(host).evidence));
        let _ = write!(out, " ({}) |", reasons.len());
    }
    out.push('\n');
    let runtime = hosts::distribution::shared_runtime_folder();
    let _ = write!(
        out,
        "\nThe shared runtime's folder: on POSIX systems {}; on Windows {}.\n",
        runtime.posix, runtime.windows
    );

    out.push_str("\n**Why a cell is empty, dropped or refused**\n\n");
    for (index, reason) in reasons.iter().enumerate() {
        let _ = writeln!(out, "{}. {reason}", index + 1);
    }
    out
}

/// What agent-bundle writes for a host on Windows, in words.
fn windows_form(form: &WindowsForm, root: &str) -> String {
    match form {
        WindowsForm::Exec { args_key } => format!(
            "`command: \"node\"` with `{args_key}`: a loader (`-e`) and `{root}/hooks/…`, on every system: no shell"
        ),
        WindowsForm::OwnKey { key, root_token, .. } => {
            format!("`{key}`: `node \"{root_token}\\hooks\\…\" ; exit $LASTEXITCODE` beside the POSIX command")
        }
        WindowsForm::SameCommand { quote_root: true, .. } => {
            format!("one `command` on every system: `node \"{root}/hooks/…\"`, no redirection")
        }
        WindowsForm::SameCommand { quote_root: false, .. } => {
            format!("one `command` on every system: `node {root}/hooks/…`, unquoted (a root holding a space breaks it)")
        }
        WindowsForm::InProcess => "nothing: the host imports the plugin's module".to_string(),
    }
}

/// The matrix as data: the same facts as [`markdown`], each empty cell with its reason.
pub fn json() -> serde_json::Value {
    use serde_json::{Map, Value, json};
    let hosts = hook_hosts();
    let cell = |result: Result<Value, &str>| match result {
        Ok(value) => value,
        Err(reason) => json!({ "unsupported": reason }),
    };
    let per_host = |f: &dyn Fn(&HostTable) -> Value| -> Value {
        Value::Object(hosts.iter().map(|h| (h.target.name().to_string(), f(h))).collect::<Map<_, _>>())
    };
    let events: Map<String, Value> = CanonicalEvent::ALL
        .iter()
        .map(|e| (e.name().to_string(), per_host(&|h| cell(h.event(*e).map(|m| json!({ "native": m.native }))))))
        .collect();
    let families: Map<String, Value> = crate::vocabulary::family::FAMILIES
        .iter()
        .map(|f| {
            let cells = per_host(&|h| cell(h.family(*f).map(|m| json!({ "native": m.native }))));
            (f.name.to_string(), json!({ "deny": f.deny, "tools": f.tools, "hosts": cells }))
        })
        .collect();
    let selectors: Map<String, Value> = Selector::ALL
        .iter()
        .map(|s| (s.name().to_string(), per_host(&|h| cell(h.selector(*s).map(|m| json!({ "matches": m.matches }))))))
        .collect();
    let parts_of = |h: &HostTable, event: HookEvent, mapping: &hosts::EventMapping| -> Map<String, Value> {
        ResultPart::ALL
            .iter()
            .map(|part| {
                let support = match h.result_part(event, *part) {
                    PartSupport::Deliver => json!({ "deliver": answer::writes(&mapping.result, *part) }),
                    PartSupport::Drop(reason) => json!({ "drop": reason }),
                    PartSupport::Refuse(reason) => json!({ "refuse": reason }),
                    PartSupport::Block { reason, exit } => json!({ "block": { "reason": reason, "exit": exit } }),
                };
                (part.name().to_string(), support)
            })
            .collect()
    };
    let route_results: Map<String, Value> = crate::vocabulary::family::FAMILIES
        .iter()
        .map(|family| {
            let cells = per_host(&|h| {
                cell(
                    h.family(*family)
                        .map(|mapping| json!({ "parts": parts_of(h, HookEvent::Route(*family), mapping) })),
                )
            });
            (family.name.to_string(), cells)
        })
        .collect();
    let payload_fields: Map<String, Value> = payload_fields()
        .into_iter()
        .map(|field| (field.to_string(), per_host(&|h| json!(native_keys(h, field)))))
        .collect();
    let results: Map<String, Value> = CanonicalEvent::ALL
        .iter()
        .map(|event| {
            let cells = per_host(&|h| {
                cell(h.event(*event).map(|mapping| {
                    let parts = parts_of(h, HookEvent::Config(*event), mapping);
                    let mut value = json!({ "parts": parts });
                    if let Some(how) = &mapping.fail_closed {
                        value["failClosed"] = serde_json::to_value(how).expect("tables serialise");
                    }
                    value
                }))
            });
            (event.name().to_string(), cells)
        })
        .collect();
    let described: Vec<Value> = hosts
        .iter()
        .map(
            |h| json!({ "target": h.target.name(), "host": h.host, "version": h.host_version, "revision": h.revision }),
        )
        .collect();
    json!({
        "hosts": described,
        "events": events,
        "families": families,
        "selectors": selectors,
        "results": results,
        "routeResults": route_results,
        "windows": per_host(&|h| serde_json::to_value(&h.hooks.as_ref().expect("hook hosts have hooks").windows).expect("tables serialise")),
        "pluginParts": per_host(&|h| {
            let surface = h.hooks.as_ref().expect("hook hosts have hooks");
            crate::vocabulary::part::PartKind::ALL
                .iter()
                .map(|kind| (kind.key().to_string(), cell(surface.plugin_parts.get(*kind).supported().map(|p| serde_json::to_value(p).expect("tables serialise")))))
                .collect::<Map<String, Value>>()
                .into()
        }),
        "pluginMcp": per_host(&|h| cell(h.hooks.as_ref().expect("hook hosts have hooks").plugin_mcp.supported().map(|m| serde_json::to_value(m).expect("tables serialise")))),
        "sharedRuntime": per_host(&|h| cell(h.hooks.as_ref().expect("hook hosts have hooks").mcp_server.supported().map(|d| json!({ "document": d.document })))),
        "payloadFields": payload_fields,
        "configFields": config_field_rows()
            .into_iter()
            .map(|(event, field)| json!({
                "event": event.name(),
                "field": field,
                "hosts": per_host(&|h| json!(config_fields(h, event, &field))),
            }))
            .collect::<Vec<_>>(),
        "toolKinds": crate::vocabulary::canonical::Selector::ALL
            .iter()
            .map(|selector| (selector.name().to_string(), per_host(&|h| cell(h.selector(*selector).map(|m| json!(m.input))))))
            .collect::<Map<String, Value>>(),
    })
}
