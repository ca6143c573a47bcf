//! The matrix as Markdown, the README's tables: one function per table, each writing its
//! introduction, its header and its rows into a [`Page`] that keeps the footnotes every empty,
//! dropped or refused cell points at.

use std::fmt::Write as _;

use super::{config_field_rows, config_fields, hook_hosts, native_keys, payload_fields};
use crate::hosts::{self, HostTable, PartSupport, ResultChannels, WindowsForm, answer};
use crate::vocabulary::canonical::{CanonicalEvent, ResultPart, Selector};
use crate::vocabulary::hook_event::HookEvent;

/// The matrix as Markdown.
pub fn markdown() -> String {
    let mut page = Page { hosts: hook_hosts(), out: String::new(), reasons: Vec::new() };
    events(&mut page);
    event_routes(&mut page);
    tool_selectors(&mut page);
    results(&mut page);
    fail_closed_guards(&mut page);
    fail_closed_routes(&mut page);
    route_results(&mut page);
    route_payload_fields(&mut page);
    config_payload_fields(&mut page);
    canonical_tool(&mut page);
    shared_runtime(&mut page);
    plugin_mcp_servers(&mut page);
    plugin_parts(&mut page);
    places(&mut page);
    entry_options(&mut page);
    extra_answers(&mut page);
    on_windows(&mut page);
    page.footnotes()
}

/// The page being written: the hosts (a column each), the text so far, and the reasons the
/// footnotes number.
struct Page {
    hosts: Vec<&'static HostTable>,
    out: String,
    reasons: Vec<String>,
}

impl Page {
    /// A table's header row, its first column named `first`.
    fn header(&mut self, first: &str) {
        self.out.push_str(&header(first, &self.hosts));
    }

    /// One row of a host table: each host's cell, or a footnote number pointing at the recorded reason.
    fn row(&mut self, item: impl std::fmt::Display, cell: impl Fn(&'static HostTable) -> Result<String, &'static str>) {
        let _ = write!(self.out, "| `{item}` |");
        for host in &self.hosts {
            match cell(host) {
                Ok(text) => {
                    let _ = write!(self.out, " {text} |");
                }
                Err(reason) => {
                    self.reasons.push(format!("{} has no `{item}`: {reason}", host.host));
                    let _ = write!(self.out, " — ({}) |", self.reasons.len());
                }
            }
        }
        self.out.push('\n');
    }

    /// The closing list of every reason a footnote points at, and the page.
    fn footnotes(mut self) -> String {
        self.out.push_str("\n**Why a cell is empty, dropped or refused**\n\n");
        for (index, reason) in self.reasons.iter().enumerate() {
            let _ = writeln!(self.out, "{}. {reason}", index + 1);
        }
        self.out
    }
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

/// A hook host's surface (every host of the matrix has hooks).
fn surface(host: &HostTable) -> &hosts::HookSurface {
    host.hooks.as_ref().expect("hook hosts have hooks")
}

/// **Events**: the native event of each canonical event.
fn events(page: &mut Page) {
    page.out.push_str("**Events**: what each host receives for a config-declared hook.\n\n");
    page.header("canonical event");
    for event in CanonicalEvent::ALL {
        page.row(event, |host| {
            host.event(event).map(|m| match host.module_mapping(event.into()) {
                Some(module) => format!("`{}` in the module, else `{}`", module.native, m.native),
                None => format!("`{}`", m.native),
            })
        });
    }
}

/// **Event routes**: the native event of each route family.
fn event_routes(page: &mut Page) {
    page.out.push_str(
        "\n**Event routes**: the native event each route family (`src/events/<family>.tsx`) reaches. Routes are\n",
    );
    page.out.push_str("built like config hooks, each into a wrapper per host.\n\n");
    page.header("family");
    for family in crate::vocabulary::family::FAMILIES {
        page.row(family, |host| host.family(family).map(|m| format!("`{}`", m.native)));
    }
}

/// **Tool selectors**: the native tool names each selector matches.
fn tool_selectors(page: &mut Page) {
    page.out.push_str("\n**Tool selectors**: the names each host's matcher accepts (joined as `^(?:…)$`).\n\n");
    page.header("selector");
    for selector in Selector::ALL {
        page.row(selector, |host| {
            host.selector(selector)
                .map(|m| m.matches.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", "))
        });
    }
}

/// **Results**: each part of a config handler's result per event and host, and the parts no host
/// takes.
fn results(page: &mut Page) {
    page.out.push_str(
        "\n**Results**: what a handler may return on each event, and how each host receives it. A part marked\n",
    );
    page.out.push_str(
        "*dropped* is legal but has no channel on that host: the wrapper delivers the rest (a denial above all)\n",
    );
    page.out
        .push_str("and names what it dropped in one note on stderr. A part marked *blocks* is a denial, an ask or a\n");
    page.out.push_str(
        "rewrite the host cannot carry there: the wrapper blocks the call through the host's blocking exit\n",
    );
    page.out.push_str("rather than lose it. A part marked *refused* fails the hook there.\n\n");
    page.header("event");
    let Page { hosts, out, reasons } = page;
    for event in CanonicalEvent::ALL {
        let _ = write!(out, "| `{event}` |");
        for host in hosts.iter() {
            let Ok(mapping) = host.event(event) else {
                out.push_str(" — |");
                continue;
            };
            let _ = write!(out, " {} |", result_cell(host, event.into(), mapping, reasons));
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
}

/// **Fail-closed guards**: how a failing beforeTool guard blocks, caught by its wrapper or not.
fn fail_closed_guards(page: &mut Page) {
    page.out.push_str(
        "\n**Fail-closed guards** (`failClosed: true` on beforeTool): how a failure of the hook blocks the tool.\n\n",
    );
    page.header("failure");
    let Page { hosts, out, reasons } = page;
    out.push_str("| caught by the wrapper (throw, bad result, bad stdin, its deadline) |");
    for host in hosts.iter() {
        let cell = host
            .event(CanonicalEvent::BeforeTool)
            .ok()
            .and_then(|m| m.fail_closed.as_ref())
            .map_or_else(|| "—".to_string(), |how| format!("exit {}, the reason on stderr", how.exit));
        let _ = write!(out, " {cell} |");
    }
    out.push_str("\n| not caught (the host's kill at its timeout, a crash before the wrapper runs) |");
    for host in hosts.iter() {
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
}

/// How a fail-closed route of each family that can deny blocks.
fn fail_closed_routes(page: &mut Page) {
    page.out.push_str(
        "\nA route of a family that can deny may be fail-closed too (`failClosed: true` in its `config`) on the\n",
    );
    page.out.push_str("hosts whose table records how its event blocks; elsewhere the build refuses it (AB4236).\n\n");
    page.header("fail-closed route");
    let Page { hosts, out, .. } = page;
    for family in crate::vocabulary::family::FAMILIES.iter().filter(|f| f.deny) {
        let _ = write!(out, "| `{family}` |");
        for host in hosts.iter() {
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
}

/// **Route results**: each part a route may render per family and host.
fn route_results(page: &mut Page) {
    page.out.push_str(
        "\n**Route results**: what a route may render on each host (`<Agent.Result value>` for the outcome,\n",
    );
    page.out
        .push_str("`<Agent.Context>` for context) and the fields it is written as, decided per part exactly as for\n");
    page.out.push_str(
        "config hooks (*dropped*, *blocks*, *refused* as above). What the family cannot take fails the route.\n\n",
    );
    page.header("family");
    let Page { hosts, out, reasons } = page;
    for family in crate::vocabulary::family::FAMILIES {
        let _ = write!(out, "| `{family}` |");
        for host in hosts.iter() {
            let Ok(mapping) = host.family(family) else {
                out.push_str(" — |");
                continue;
            };
            let cell = if family.observes_only() {
                "observes only".to_string()
            } else {
                result_cell(host, HookEvent::Route(family), mapping, reasons)
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
}

/// **Route payload fields**: the native keys of each canonical payload field of a route.
fn route_payload_fields(page: &mut Page) {
    page.out.push_str(
        "\n**Route payload fields**: the native key each canonical payload field (`canonical.payload.<field>`,\n",
    );
    page.out.push_str("as `{ value, nativeKey }`) is read from; a field a host does not send is absent.\n\n");
    page.header("field");
    let Page { hosts, out, .. } = page;
    for field in payload_fields() {
        let _ = write!(out, "| `{field}` |");
        for host in hosts.iter() {
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
}

/// **Config payload fields**: the native keys of each field a config handler receives, per event.
fn config_payload_fields(page: &mut Page) {
    page.out.push_str(
        "\n**Config payload fields**: the native key each field a config handler receives is read from, per\n",
    );
    page.out.push_str("event; a field a host does not send there is absent from the payload (—).\n\n");
    page.header("event: field");
    let Page { hosts, out, .. } = page;
    for (event, field) in config_field_rows() {
        let _ = write!(out, "| `{event}`: `{field}` |");
        for host in hosts.iter() {
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
}

/// **Canonical tool**: the native tools of each `tool.kind` and the keys of its canonical fields.
fn canonical_tool(page: &mut Page) {
    page.out
        .push_str("\n**Canonical tool**: which native tools each `tool.kind` stands for, and the native key (in the\n");
    page.out.push_str(
        "tool's input) of each canonical field: `command`, `cwd`, `filePath`, `content`, `edits`, `patch`,\n",
    );
    page.out.push_str(
        "the MCP name split (`mcpName`) or context (`mcpContext`). A tool none of these name is `other`.\n\n",
    );
    page.header("tool.kind");
    for selector in Selector::ALL {
        page.row(selector.name(), |host| tool_cell(host, selector).map(|tools| tools.join("; ").replace('|', "\\|")));
    }
}

/// **Shared runtime**: the document that declares the shared runtime's MCP server.
fn shared_runtime(page: &mut Page) {
    page.out.push_str(
        "\n**Shared runtime**: where the plugin declares the MCP server that renders `runtime: 'shared'` routes.\n\n",
    );
    page.header("document");
    page.row("mcpServers", |host| surface(host).mcp_server.supported().map(|d| format!("`{}`", d.document)));
}

/// **The plugin's MCP servers**: where each host reads them, how the root reaches a server, the
/// name of its tools, and the evidence.
fn plugin_mcp_servers(page: &mut Page) {
    page.out
        .push_str("\n**The plugin's MCP servers** (`mcpServers`): where each host reads them, how `${pluginRoot}`\n");
    page.out.push_str("reaches a server, the name the host gives a tool of the plugin's server `<server>` (what an\n");
    page.out.push_str(
        "`mcp:<server>` selector matches), and where each fact comes from (*observed*: the real-host suite\n",
    );
    page.out.push_str("ran a module server there, the model called its tool and a hook saw that name).\n\n");
    page.header("plugin MCP");
    fn plugin_mcp(host: &HostTable) -> Result<&hosts::PluginMcp, &str> {
        surface(host).plugin_mcp.supported()
    }
    let mcp_marked =
        |mcp: &hosts::PluginMcp, text: String| format!("{} *({})*", text.replace('|', "\\|"), mcp.proof.word());
    page.row("document", |host| {
        plugin_mcp(host).map(|mcp| {
            let pointer = mcp
                .manifest_pointer
                .as_ref()
                .map(|key| format!(", named by the manifest's `{key}`"))
                .unwrap_or_default();
            mcp_marked(mcp, format!("`{}` `{}`{pointer}", mcp.document, mcp.key))
        })
    });
    page.row("root", |host| {
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
    page.row("remote", |host| {
        plugin_mcp(host).map(|mcp| {
            let kinds: Vec<String> = mcp.remote.keys().map(|k| format!("`{k}`")).collect();
            if kinds.is_empty() { "—".to_string() } else { kinds.join(", ") }
        })
    });
    page.row("tool name", |host| {
        plugin_mcp(host).map(|mcp| mcp_marked(mcp, format!("`{}`", mcp.tool_name("<plugin>", "<server>", "<tool>"))))
    });
    let Page { hosts, out, reasons } = page;
    let _ = write!(out, "| `evidence` |");
    for host in hosts.iter() {
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
}

/// **Plugin parts**: where each host reads skills, commands, agents and the context file, the
/// manifest keys it takes, and the evidence.
fn plugin_parts(page: &mut Page) {
    page.out.push_str(
        "\n**Plugin parts** (`skills`, `commands`, `agents`, `contextFile`): where each host reads them in its\n",
    );
    page.out
        .push_str("plugin folder, the manifest key that names the place where the host reads it only then, the form\n");
    page.out.push_str(
        "of each file there, how a user reaches one, and how that is known (*observed*: the real-host suite\n",
    );
    page.out.push_str("saw the host hand it to the model).\n\n");
    page.header("part");
    for kind in crate::vocabulary::part::PartKind::ALL {
        page.row(kind.key(), |host| {
            let surface = surface(host);
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
    page.row("interface", |host| {
        let surface = surface(host);
        if surface.manifest_interface.is_empty() {
            Ok("—".to_string())
        } else {
            Ok(surface.manifest_interface.keys().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "))
        }
    });
    let Page { hosts, out, reasons } = page;
    let _ = write!(out, "| `evidence` |");
    for host in hosts.iter() {
        let surface = surface(host);
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
}

/// **Places**: where `context.dataDir` and `context.projectDir` come from.
fn places(page: &mut Page) {
    page.out.push_str(
        "\n**Places**: where a handler's `context.dataDir` and `context.projectDir` come from on each host (the\n",
    );
    page.out.push_str(
        "first variable set wins, then the envelope's keys; with no data variable, agent-bundle's own folder,\n",
    );
    page.out.push_str("`$XDG_DATA_HOME/agent-bundle/plugins/<plugin>`), and how that is known.\n\n");
    page.header("context");
    let names = |names: &[String]| names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    fn places(host: &HostTable) -> &crate::hosts::Places {
        &surface(host).places
    }
    page.row("dataDir", |host| {
        let found = names(&places(host).data_env);
        Ok(if found.is_empty() {
            "agent-bundle's folder".to_string()
        } else {
            format!("{found}, else agent-bundle's folder")
        })
    });
    page.row("projectDir", |host| {
        let places = places(host);
        let keys: Vec<String> = places.project_keys.iter().map(|k| format!("envelope `{k}`")).collect();
        let variables = names(&places.project_env);
        Ok([variables].into_iter().filter(|v| !v.is_empty()).chain(keys).collect::<Vec<_>>().join(", then "))
    });
    page.row("proof", |host| Ok(places(host).proof.word().to_string()));
}

/// **Entry options**: the key each host takes `statusMessage` and `async` as.
fn entry_options(page: &mut Page) {
    page.out.push_str(
        "\n**Entry options**: the key each host's entries take an entry option as, and how that is known. A\n",
    );
    page.out.push_str(
        "`statusMessage` where there is none is not shown; an `async` hook where there is none still does not\n",
    );
    page.out.push_str("hold the host up: its wrapper answers at once and runs the handler detached.\n\n");
    page.header("option");
    let option = |support: &'static crate::hosts::Support<crate::hosts::EntryOption>| {
        support.supported().map(|o| format!("`{}` ({})", o.key, o.proof.word()))
    };
    page.row("statusMessage", |host| option(&surface(host).entry_options.status_message));
    page.row("async", |host| option(&surface(host).entry_options.run_async));
}

/// **Extra answers**: where each host takes what a handler's `extra` carries.
fn extra_answers(page: &mut Page) {
    page.out.push_str(
        "\n**Extra answers**: what a config handler's `extra` may carry beyond the canonical parts, and where\n",
    );
    page.out.push_str(
        "each host takes it (a field of its answer, or a file it sources later), on which of its events, and how\n",
    );
    page.out.push_str(
        "that is known; where a host has none the wrapper drops it with a note. `env` is sessionStart's only.\n\n",
    );
    page.header("extra");
    for extra in crate::vocabulary::canonical::Extra::ALL {
        page.row(extra.name(), |host| {
            let how = surface(host).answer_extras.get(&extra).ok_or("not in its table")?.supported()?;
            let write = match &how.write {
                crate::hosts::ExtraWrite::Field(path) => format!("`{path}`"),
                crate::hosts::ExtraWrite::EnvFile(variable) => format!("`export` lines in `${variable}`"),
            };
            let events = if how.events.is_empty() { "every event".to_string() } else { how.events.join(", ") };
            Ok(format!("{write} on {events} ({})", how.proof.word()))
        });
    }
}

/// **On Windows**: what runs a hook there, what agent-bundle writes, the plugin root, the install
/// places, the evidence, and the shared runtime's folder.
fn on_windows(page: &mut Page) {
    page.out.push_str(
        "\n**On Windows**: what runs a hook's command there, what agent-bundle writes so that every shell the\n",
    );
    page.out.push_str(
        "host may use parses it (no POSIX-only syntax: a guard whose command a shell cannot parse never runs),\n",
    );
    page.out
        .push_str("how the plugin's root reaches it, and where each fact comes from: *observed* (the host's Windows\n");
    page.out.push_str("build ran it here, under Wine), *source-derived* (read in the host's published code),\n");
    page.out.push_str("*docs-derived*, or *unverified* (nothing to run or read). There is no handover of the answer\n");
    page.out.push_str(
        "channel on Windows: the wrapper answers on stdout and keeps its handler's writes off it itself.\n\n",
    );
    page.header("on Windows");
    fn windows(host: &HostTable) -> &hosts::WindowsRun {
        &surface(host).windows
    }
    let marked =
        |host: &HostTable, text: &str| format!("{} *({})*", text.replace('|', "\\|"), windows(host).proof.word());
    page.row("runs the command", |host| Ok(marked(host, &windows(host).shell)));
    page.row("agent-bundle writes", |host| {
        Ok(marked(host, &windows_form(&windows(host).form, &surface(host).root_token)))
    });
    page.row("plugin root", |host| Ok(marked(host, &windows(host).root)));
    page.row("install places", |host| {
        Ok(match hosts::distribution::windows_places(host.target) {
            Some(places) => places.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ").replace('|', "\\|"),
            None => "— (`install` does not drive it)".to_string(),
        })
    });
    let Page { hosts, out, reasons } = page;
    let _ = write!(out, "| `evidence` |");
    for host in hosts.iter() {
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
                let mut line = delivered(&mapping.result, part);
                if let Some(caveat) = mapping.result.caveats.get(&part) {
                    reasons.push(format!("{host_name} delivers {described} on `{event}`, and: {caveat}"));
                    line.push_str(&format!(" ({})", reasons.len()));
                }
                parts.push(line);
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
