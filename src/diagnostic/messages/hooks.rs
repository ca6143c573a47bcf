//! Hook declarations: entries, timeouts, sources, `onMissingSelector`, `async`, `statusMessage`,
//! defines, `failClosed`, `maxInputBytes`, and the payload a handler reads.

use super::not_one_of;
use crate::diagnostic::{Code, Diagnostic, Found, HookSite, HostName};
use crate::vocabulary::canonical::CanonicalEvent;
use crate::vocabulary::source::Location;
use crate::vocabulary::suggest::did_you_mean;

pub fn missing_handler(event: CanonicalEvent, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::InvalidHandler, format!("the `{event}` hook entry has no `handler`"))
        .at(Some(at), "`handler` is required")
        .hint("add `handler: './src/hooks/<name>.ts'` (or `handler: { prebuilt: '<file in a payload>' }`)")
}

pub fn invalid_hook_entry(event: CanonicalEvent, found: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidHandler,
        format!("a `{event}` hook must be a handler path, an entry object, or an array of them, found {found}"),
    )
    .at(Some(at), "not a hook declaration")
    .hint(format!("write `{event}: './src/hooks/<name>.ts'` or `{event}: {{ handler: './src/hooks/<name>.ts' }}`"))
}

pub fn nested_hook_array(event: CanonicalEvent, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::InvalidHandler, format!("the `{event}` array holds another array"))
        .at(Some(at), "arrays of hooks do not nest")
        .hint("list each handler path or entry object directly in the event's array")
}

pub fn invalid_handler(found: &Found, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidHandler,
        format!(
            "`handler` must be a non-empty module path or `{{ prebuilt: '<path>' }}`, found {} `{}`",
            found.kind, found.preview
        ),
    )
    .at(Some(at), "not a handler")
    .hint("write `handler: './src/hooks/<name>.ts'`")
}

/// `found` is the kind of a value that is not a number at all (`None` for a number out of range).
pub fn invalid_timeout(shown: &str, found: Option<&str>, at: &Location) -> Diagnostic {
    let found = found.map(|kind| format!("{kind} ")).unwrap_or_default();
    Diagnostic::new(
        Code::InvalidTimeout,
        format!("`timeout` must be a positive whole number of seconds, found {found}`{shown}`"),
    )
    .at(Some(at), "not a positive whole number of seconds")
    .hint("write the timeout in whole seconds, e.g. `timeout: 10`, or leave it out to use the host's default")
}

/// A whole number of seconds longer than `max`, the most Node's timers hold.
pub fn timeout_too_long(shown: &str, max: u32, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidTimeout,
        format!("`timeout` is {shown} seconds, more than the {max} (about 24 days) a hook's timers can hold"),
    )
    .at(Some(at), "longer than Node's timers hold")
    .note("the wrapper's deadline and the hosts that run on Node count the timeout in milliseconds, with timers that hold at most 2147483647 ms; a longer delay fires after 1 ms, so the hook would fail on every call")
    .hint(format!("write at most `timeout: {max}`, or leave it out to use the host's default"))
}

pub fn sources_on_other_event(event: CanonicalEvent, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidSources,
        format!("`sources` has no meaning on `{event}`: only sessionStart hooks start from a session source"),
    )
    .at(Some(at), "sources on a non-session event")
    .hint("remove `sources`, or move the handler to `sessionStart`")
}

pub fn unknown_session_source(value: &str, known: &[&str], at: &Location) -> Diagnostic {
    let diagnostic = Diagnostic::new(Code::InvalidSources, format!("`{value}` is not a session source any host sends"))
        .at(Some(at), "unknown session source");
    let listed = known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
    match did_you_mean(value, known.iter().copied()) {
        Some(suggestion) => diagnostic.hint(format!("did you mean `{suggestion}`? Sources are {listed}")),
        None => diagnostic.hint(format!("sources are {listed}")),
    }
}

pub fn sources_unfilterable(hook: &HookSite, table: &HostName, reason: &str) -> Diagnostic {
    Diagnostic::new(
        Code::SourcesUnfilterable,
        format!("hook `{}` runs only for some session sources, but {} cannot filter sessionStart by source", hook.name, table.host),
    )
    .at(Some(hook.declared_at), "the filter would not hold on this host")
    .note(reason.to_string())
    .hint(format!(
        "leave {} out of this hook's `targets`, or drop `sources` and check `event.source` in the handler where the host sends it",
        table.target
    ))
}

pub fn missing_selector_invalid(value: &str, at: &Location) -> Diagnostic {
    not_one_of(
        Code::InvalidMissingSelector,
        "onMissingSelector",
        value,
        &crate::vocabulary::canonical::MissingSelector::NAMES,
        at,
        "`error` (the default) fails the build, `skip-host` leaves such a host out, `skip-selector` gives it the selectors it has".into(),
    )
}

pub fn missing_selector_without_tools(at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidMissingSelector,
        "`onMissingSelector` has nothing to decide: the hook selects no canonical `tools`",
    )
    .at(Some(at), "without canonical tools")
    .note(
        "only a canonical selector (`shell`, `file.read`, …) can lack a host's equivalent; a native one names its host",
    )
    .hint("remove `onMissingSelector`, or add the canonical `tools` it is about")
}

pub fn payload_field_unsent(
    handler: &str,
    field: &str,
    event: CanonicalEvent,
    hosts: &[String],
    at: &Location,
) -> Diagnostic {
    Diagnostic::new(
        Code::PayloadFieldUnsent,
        format!("`{handler}` reads `{field}` from its payload, which {} never sends on `{event}`", hosts.join(" and ")),
    )
    .at(Some(at), format!("always undefined on {}", hosts.join(" and ")))
    .note("`cargo agent-bundle matrix` lists, per host and event, which payload fields arrive")
    .hint(format!("give `{field}` a fallback where it is absent, or narrow the hook's `targets`"))
}

pub fn tool_input_key_unheld(handler: &str, key: &str, hosts: &[(String, Vec<String>)], at: &Location) -> Diagnostic {
    let names: Vec<&str> = hosts.iter().map(|(host, _)| host.as_str()).collect();
    let held: Vec<String> = hosts
        .iter()
        .map(|(host, keys)| {
            let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
            format!("on {host}, {}", keys.join(", "))
        })
        .collect();
    Diagnostic::new(
        Code::ToolInputKeyUnheld,
        format!(
            "`{handler}` reads `toolInput.{key}`, which the tools its hook runs for on {} never hold",
            names.join(" and ")
        ),
    )
    .at(Some(at), format!("always undefined on {}", names.join(" and ")))
    .note(format!("each host's tools have their own input keys: {}", held.join("; ")))
    .hint(
        "read the canonical tool (`tool.command`, `tool.filePaths`, `tool.edits`), which every host's call has, or \
         narrow the hook's `targets`",
    )
}

pub fn stdin_without_envelope(handler: &str, module: &str, hosts: &[String], at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::StdinWithoutEnvelope,
        format!("`{handler}` reads stdin, which carries no envelope on {}", hosts.join(" and ")),
    )
    .at(Some(at), format!("reads stdin ({module})"))
    .note(
        "a wrapper process serves a handler's own stdin reads the envelope it read; a hook run in the host's own \
         process (OpenCode) or a route rendered in the shared runtime would read that process's stdin instead",
    )
    .hint(
        "read the payload, or the host's envelope as `context.nativeInput` (a route's `native` prop), instead of stdin",
    )
}

pub fn async_on_deciding_event(event: CanonicalEvent, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::AsyncNotDetachable,
        format!("`async: true` on `{event}`, whose hook can deny: a denial is never async"),
    )
    .at(Some(at), "the host would not wait for the decision")
    .note("an async hook's host goes on without its answer, so a denial it returned would be lost; only sessionStart, afterTool, agentStart and workspaceOpen hooks can be async")
    .hint("remove `async`; work that need not be waited for can go in a hook of its own on afterTool or sessionStart, declared async there")
}

pub fn async_prebuilt(at: &Location) -> Diagnostic {
    Diagnostic::new(Code::AsyncNotDetachable, "`async: true` on a prebuilt handler, which has no wrapper to detach it")
        .at(Some(at), "runs as it is, without a wrapper")
        .note("where a host has no `async` of its own, agent-bundle's wrapper answers at once and runs the handler detached; a prebuilt handler runs without one")
        .hint("remove `async`, or declare the handler as a module")
}

pub fn invalid_status_message(text: &str, max: usize, at: &Location) -> Diagnostic {
    let got =
        if text.trim().is_empty() { "a blank one".to_string() } else { format!("{} characters", text.chars().count()) };
    Diagnostic::new(
        Code::InvalidStatusMessage,
        format!("`statusMessage` must be a line of 1 to {max} characters, got {got}"),
    )
    .at(Some(at), "not a status line")
    .note("hosts that show it display it while the hook runs (Claude Code, Codex)")
    .hint("write a short line such as `'Checking the command…'`, or remove `statusMessage`")
}

pub fn define_name_invalid(name: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::InvalidDefine, format!("`bundle.define` cannot replace `{name}`: it is not a name"))
        .at(Some(at), "not an identifier or member chain")
        .note("the bundler replaces identifiers and member chains (`__VERSION__`, `process.env.NODE_ENV`) where code reads them")
        .hint("name what the code reads, such as `'process.env.NODE_ENV'`")
}

pub fn define_value_invalid(name: &str, code: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidDefine,
        format!("`bundle.define.{name}` is `{code}`, which is neither a JSON literal nor a name"),
    )
    .at(Some(at), "replaced as code")
    .note("as in esbuild and tsup, a replacement is code: an unquoted word stands for a variable of that name, and other text does not parse")
    .hint(format!("for a string constant, quote it inside the string: `'{name}': '{}'`", serde_json::to_string(code).unwrap_or_default()))
}

pub fn fail_closed_on_other_event(event: CanonicalEvent, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::FailClosedOnOtherEvent,
        format!("`failClosed` has no meaning on `{event}`: only a beforeTool hook guards a tool call that a failure could block"),
    )
    .at(Some(at), "fail-closed on a non-guard event")
    .hint("remove `failClosed`, or move the guard to `beforeTool`")
}

pub fn fail_closed_uncovered(hook: &HookSite, table: &HostName, uncovered: &str) -> Diagnostic {
    Diagnostic::new(
        Code::FailClosedUncovered,
        format!(
            "hook `{}` is fail-closed, but its prebuilt handler runs without the agent-bundle wrapper, and {} has no failure field in its hook entries",
            hook.name, table.host
        ),
    )
    .at(Some(hook.declared_at), "nothing would block on this host")
    .note(uncovered.to_string())
    .hint(format!(
        "use a handler module (the wrapper blocks with exit 2 on {}), or leave {} out of this hook's `targets`",
        table.host, table.target
    ))
}

pub fn tools_on_non_tool_event(event: CanonicalEvent, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::ToolsOnNonToolEvent,
        format!("`tools` has no meaning on `{event}`: only beforeTool and afterTool hooks see tool calls"),
    )
    .at(Some(at), "tools filter on a non-tool event")
    .hint("remove `tools`, or move the handler to `beforeTool` or `afterTool`")
}

pub fn too_many_hooks(entries: usize, routes: usize, limit: usize, at: Option<&Location>) -> Diagnostic {
    let what = match routes {
        0 => format!("{entries} hooks"),
        _ => format!("{entries} config entries and {routes} event routes"),
    };
    Diagnostic::new(Code::TooManyHooks, format!("the bundle declares {what}, more than the {limit} one bundle may hold"))
        .at(at, format!("hook number {} of the config", limit + 1))
        .note("every matching hook runs on every tool call of every session: a config this large is usually generated by mistake")
        .hint("declare one hook per concern and let its handler branch, or split the hooks over several bundles")
}

pub fn duplicate_hook(name: &str, at: &Location, first: &Location) -> Diagnostic {
    Diagnostic::new(Code::DuplicateHook, format!("hook `{name}` is declared twice"))
        .at(Some(at), "same event, handler, targets, tools, timeout and args")
        .at(Some(first), "first declared here")
        .hint("remove one declaration, or change it (a different timeout or tools) if both are meant")
}

/// `maxInputBytes` out of range: `shown` is the value as written, `range` the allowed bounds.
pub fn invalid_max_input_bytes(shown: &str, range: (u64, u64), default_mib: u64, at: &Location) -> Diagnostic {
    let (min, max) = range;
    Diagnostic::new(
        Code::InvalidMaxInputBytes,
        format!("`maxInputBytes` must be a whole number of bytes from {min} to {max}, found `{shown}`"),
    )
    .at(Some(at), "not a byte count in range")
    .hint(format!(
        "leave it out for the default ({default_mib} MiB, far above real tool inputs), or write a whole byte count, e.g. `maxInputBytes: 134217728` (128 MiB)"
    ))
}

pub fn max_input_bytes_on_prebuilt(at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidMaxInputBytes,
        "`maxInputBytes` has no meaning for a prebuilt handler: it runs as it is, without the wrapper that reads stdin",
    )
    .at(Some(at), "no wrapper reads this hook's stdin")
    .hint("remove `maxInputBytes`, or use a handler module so the wrapper enforces it")
}
