//! Every user-facing diagnostic message, one constructor per diagnostic, so the wording (message,
//! label, hint) can be reviewed in one file. Messages name the offending key or value; hints say
//! what to write instead.

use camino::Utf8Path;

use super::{Code, Diagnostic, Found, HookSite, HostName, Obstruction};
use crate::vocabulary::canonical::{CONFIG_FILE_NAMES, CanonicalEvent, HANDLER_EXTENSIONS, Selector};
use crate::vocabulary::nesting::Construct;
use crate::vocabulary::npm::package_name;
use crate::vocabulary::part::PartKind;
use crate::vocabulary::source::Location;
use crate::vocabulary::suggest::did_you_mean;
use crate::vocabulary::target::Target;

fn list(items: impl IntoIterator<Item = impl std::fmt::Display>) -> String {
    items.into_iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", ")
}

fn target_names(targets: &[Target]) -> String {
    if targets.is_empty() { "none".to_string() } else { list(targets) }
}

// ---------------------------------------------------------------------------------------------
// Finding and reading the config

pub fn root_not_found(root: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::RootNotFound, format!("bundle root `{root}` is not a directory"))
        .hint("pass the folder that holds `agent-bundle.config.ts` with `--root <dir>`")
}

pub fn config_not_found(root: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::ConfigNotFound, format!("no agent-bundle config in `{root}`"))
        .note(format!("looked for {}", list(CONFIG_FILE_NAMES)))
        .hint("create `agent-bundle.config.ts` with `export default defineConfig({ hooks: { … } })`, or point `--root` at the bundle")
}

pub fn config_ambiguous(root: &Utf8Path, found: &[&str]) -> Diagnostic {
    Diagnostic::new(Code::ConfigAmbiguous, format!("`{root}` holds more than one config file: {}", list(found)))
        .hint("keep exactly one agent-bundle config file in the bundle root")
}

pub fn config_not_regular(path: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::ConfigUnreadable, format!("`{path}` is not a regular file"))
        .note("it is a FIFO, a socket or a device (or a link to one), which a build never reads: it could block or never end")
        .hint("make the config an ordinary file")
}

pub fn config_unreadable(path: &Utf8Path, error: &std::io::Error) -> Diagnostic {
    Diagnostic::new(Code::ConfigUnreadable, format!("cannot read `{path}`: {error}"))
        .hint("check the file's permissions and that it is UTF-8 text")
}

pub fn syntax_error(message: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::SyntaxError, format!("syntax error: {message}"))
        .at(Some(at), "here")
        .hint("fix the syntax; the config is parsed as TypeScript (`.ts`, `.mts`) or JavaScript (`.js`, `.mjs`)")
}

/// The parser itself gave up on a text (an internal check of swc failed; seen only on text that is
/// not valid TypeScript), with what it said.
pub fn parser_fault(detail: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::SyntaxError, "syntax error: the parser stopped on this text")
        .at(Some(at), "in this file")
        .note(format!("swc failed an internal check: {}", detail.split_whitespace().collect::<Vec<_>>().join(" ")))
        .hint("fix the syntax; the config is parsed as TypeScript (`.ts`, `.mts`) or JavaScript (`.js`, `.mjs`)")
}

pub fn no_default_export(file: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::NoDefaultExport, format!("`{file}` has no default export"))
        .hint("end the file with `export default defineConfig({ hooks: { … } })`")
}

pub fn unsupported_export_shape(what: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::UnsupportedExportShape,
        format!("the default export is {what}, which cannot be read without running it"),
    )
    .at(Some(at), "not a readable config")
    .hint("export `defineConfig({ … })`, an object literal, or a factory `() => ({ … })` that returns one")
}

pub fn define_config_arity(at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::UnsupportedExportShape,
        "`defineConfig` takes exactly one argument, the config object or a factory",
    )
    .at(Some(at), "expected `defineConfig({ … })`")
    .hint("pass the whole config as one object literal")
}

pub fn factory_without_return(at: &Location) -> Diagnostic {
    Diagnostic::new(Code::UnsupportedExportShape, "the config factory does not end by returning an object")
        .at(Some(at), "the last statement must be `return { … }`")
        .hint("write the factory as `() => ({ … })`, or make `return { … }` its last statement")
}

pub fn non_static_value(what: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::NonStaticValue, format!("{what} is not a static value; agent-bundle reads the config without running it"))
        .at(Some(at), "needs code to run")
        .hint("write the value literally (strings, numbers, booleans, arrays and objects), or in a top-level `const` initialised with a literal")
}

pub fn non_static_identifier(name: &str, what: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::NonStaticValue, format!("`{name}` is {what}, not a static value"))
        .at(Some(at), "cannot be read without running the config")
        .hint(format!("declare `{name}` as a top-level `const` initialised with a literal, or write the value here"))
}

pub fn unbound_identifier(name: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::NonStaticValue, format!("`{name}` is not declared in this file"))
        .at(Some(at), "unknown name")
        .hint(format!("declare `const {name} = …` at the top level of the config, or write the value here"))
}

pub fn undefined_value(at: &Location) -> Diagnostic {
    Diagnostic::new(Code::NonStaticValue, "`undefined` is not a config value")
        .at(Some(at), "leave the key out instead")
        .hint("remove the key; an absent key takes its default")
}

pub fn nested_too_deep(what: &str, limit: usize, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::NestedTooDeep, format!("{what} nest deeper than {limit} levels"))
        .at(Some(at), "too deep from here")
        .note("the parsers recurse once per level; a text nested this deep would overflow their stack")
        .hint("flatten the value, or build it in a handler at run time")
}

/// A config or route text nests `construct` past `limit` where `at` points.
pub fn text_nested_too_deep(construct: Construct, limit: usize, at: &Location) -> Diagnostic {
    let hint = match construct {
        Construct::Operators => "split the expression: give its parts names with `const`",
        Construct::TypeArguments => {
            "name the inner types with `type` aliases, or leave the types to a handler's module"
        }
        _ => "flatten the value, or build it in a handler at run time",
    };
    Diagnostic::new(Code::NestedTooDeep, format!("its {} nest deeper than {limit} levels", construct.describe()))
        .at(Some(at), "too deep from here")
        .note("the parsers recurse once per level; a text nested this deep would overflow their stack")
        .hint(hint)
}

pub fn cyclic_constant(name: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::NonStaticValue, format!("`{name}` refers to itself"))
        .at(Some(at), "cyclic constant")
        .hint("give the constant a literal value")
}

pub fn duplicate_key(key: &str, at: &Location, first: &Location) -> Diagnostic {
    Diagnostic::new(Code::DuplicateKey, format!("key `{key}` is written twice in the same object"))
        .at(Some(at), "repeated here")
        .at(Some(first), "first written here")
        .hint("JavaScript keeps only the last one; merge the two into one key")
}

// ---------------------------------------------------------------------------------------------
// The config schema

/// Keys people bring from the hosts' own formats, and what agent-bundle spells instead.
const FOREIGN_KEYS: &[(&str, &str)] = &[
    ("matcher", "write canonical selectors in `tools`; agent-bundle derives each host's matcher from them"),
    ("timeoutMs", "write `timeout` in whole seconds"),
    ("timeoutSec", "write `timeout` in whole seconds"),
    ("command", "point `handler` at a module; agent-bundle writes each host's command"),
];

pub fn unknown_key(key: &str, context: &str, known: &[&str], at: &Location) -> Diagnostic {
    let diagnostic =
        Diagnostic::new(Code::UnknownKey, format!("unknown key `{key}` in {context}")).at(Some(at), "not a known key");
    if let Some((_, advice)) = FOREIGN_KEYS.iter().find(|(foreign, _)| *foreign == key) {
        return diagnostic.hint(*advice);
    }
    match did_you_mean(key, known.iter().copied()) {
        Some(suggestion) => diagnostic.hint(format!("did you mean `{suggestion}`?")),
        None => diagnostic.hint(format!("{context} accepts {}", list(known))),
    }
}

pub fn unknown_event(key: &str, at: &Location) -> Diagnostic {
    let events = CanonicalEvent::ALL.map(CanonicalEvent::name);
    let diagnostic =
        Diagnostic::new(Code::UnknownEvent, format!("`{key}` is not a hook event")).at(Some(at), "unknown event");
    match did_you_mean(key, events) {
        Some(suggestion) => diagnostic.hint(format!("did you mean `{suggestion}`?")),
        None => diagnostic.hint(format!("config hooks are keyed by one of {}", list(events))),
    }
}

pub fn wrong_type(what: &str, expected: &str, found: &Found, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::WrongType, format!("{what} must be {expected}, found {} `{}`", found.kind, found.preview))
        .at(Some(at), format!("expected {expected}"))
        .hint(format!("write {what} as {expected}"))
}

pub fn missing_key(key: &str, context: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::MissingKey, format!("{context} has no `{key}`"))
        .at(Some(at), format!("`{key}` is required here"))
        .hint(format!("add `{key}: …` to {context}"))
}

pub fn invalid_plugin_name(name: &str, suggestion: &str, at: &Location) -> Diagnostic {
    let diagnostic = Diagnostic::new(Code::InvalidPluginName, format!("plugin name `{name}` is not kebab-case"))
        .at(Some(at), "hosts reject this name")
        .note("Claude Code, Codex and Cursor load a plugin only under a name of lowercase letters, digits and single hyphens");
    if suggestion.is_empty() {
        diagnostic.hint("use a name such as `my-plugin`")
    } else {
        diagnostic.hint(format!("use `{suggestion}`"))
    }
}

pub fn incomplete_plugin_metadata(missing: &[&str], plugin_at: Option<&Location>) -> Diagnostic {
    Diagnostic::new(Code::IncompletePluginMetadata, format!("the plugin has no {}", missing.join(", no ")))
        .at(plugin_at, "incomplete plugin details")
        .note("Claude Code's `claude plugin validate --strict` fails on a plugin without an author, a description and a version")
        .hint(format!(
            "add {} to `plugin` (for example `author: 'Your Name <you@example.com>'`), or to the bundle's package.json",
            list(missing)
        ))
}

pub fn icon_invalid(written: &str, problem: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::InvalidIcon, format!("`plugin.icon` `{written}` {problem}"))
        .at(Some(at), "not a PNG in the bundle")
        .hint("point `plugin.icon` at a square PNG inside the bundle (512 to 2048 pixels), or leave it out")
}

pub fn icon_unsuitable(written: &str, problem: &str, at: Option<&Location>) -> Diagnostic {
    Diagnostic::new(
        Code::UnsuitableIcon,
        format!("the plugin icon `{written}` would be refused by the Claude plugin directory: {problem}"),
    )
    .at(at, "unsuitable icon")
    .note("the icon is still shipped; hosts that do not list plugins in a directory ignore it")
    .hint("use a square PNG of 512 to 2048 pixels on each side, under 2 MB")
}

// ---------------------------------------------------------------------------------------------
// Hook declarations

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

/// `key` holds `value`, which is none of `allowed`: "did you mean" when one is close, else `otherwise`.
fn not_one_of(code: Code, key: &str, value: &str, allowed: &[&str], at: &Location, otherwise: String) -> Diagnostic {
    let diagnostic = Diagnostic::new(code, format!("`{key}` is `{value}`, not one of {}", list(allowed.iter())))
        .at(Some(at), "unknown value");
    match did_you_mean(value, allowed.iter().copied()) {
        Some(suggestion) => diagnostic.hint(format!("did you mean `{suggestion}`?")),
        None => diagnostic.hint(otherwise),
    }
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

pub fn invalid_selector(value: &str, at: &Location) -> Diagnostic {
    let canonical = Selector::ALL.map(Selector::name);
    let diagnostic = Diagnostic::new(
        Code::InvalidSelector,
        format!("`{value}` is neither a canonical tool selector nor `<target>:<native-name>`"),
    )
    .at(Some(at), "unknown selector");
    match did_you_mean(value, canonical) {
        Some(suggestion) => diagnostic.hint(format!("did you mean `{suggestion}`?")),
        None => {
            diagnostic.hint(format!("use one of {}, or a host-native tool such as `claude:WebSearch`", list(canonical)))
        }
    }
}

pub fn empty_targets(what: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::EmptyTargets, format!("{what} is an empty list, so nothing would be built"))
        .at(Some(at), "no targets")
        .hint(format!("name at least one of {}, or remove the key to use the default", list(Target::names())))
}

pub fn unknown_target(name: &str, at: &Location) -> Diagnostic {
    with_target_suggestion(Diagnostic::new(Code::UnknownTarget, format!("unknown target `{name}`")), name, at)
}

pub fn unknown_entry_target(name: &str, at: &Location) -> Diagnostic {
    with_target_suggestion(
        Diagnostic::new(Code::UnknownEntryTarget, format!("the hook targets unknown host `{name}`")),
        name,
        at,
    )
}

fn with_target_suggestion(diagnostic: Diagnostic, name: &str, at: &Location) -> Diagnostic {
    let diagnostic = diagnostic.at(Some(at), "not a known target");
    match did_you_mean(name, Target::names()) {
        Some(suggestion) => diagnostic.hint(format!("did you mean `{suggestion}`?")),
        None => diagnostic.hint(format!("known targets are {}", list(Target::names()))),
    }
}

pub fn portable_target(target: Target, why: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::PortableTarget, format!("the hook explicitly targets `{target}`, which has no hook surface"))
        .at(Some(at), "cannot receive hooks")
        .note(why.to_string())
        .hint(format!("remove `{target}` from the hook's targets; inherited targets drop it silently"))
}

pub fn entry_target_not_selected(target: Target, selected: &[Target], at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::EntryTargetNotSelected,
        format!("the hook targets `{target}`, which is not among the config's targets ({})", target_names(selected)),
    )
    .at(Some(at), "not selected by the config")
    .hint(format!("add `{target}` to the config's top-level `targets`, or remove it from this hook"))
}

pub fn native_selector_unknown_target(name: &str, at: &Location) -> Diagnostic {
    let diagnostic =
        Diagnostic::new(Code::NativeSelectorUnknownTarget, format!("native selector names unknown host `{name}`"))
            .at(Some(at), "unknown host");
    match did_you_mean(name, Target::names()) {
        Some(suggestion) => diagnostic.hint(format!("did you mean `{suggestion}:…`?")),
        None => diagnostic.hint(format!("write `<target>:<tool>` with a target among {}", list(Target::names()))),
    }
}

pub fn native_selector_hookless_target(target: Target, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::NativeSelectorHooklessTarget, format!("native selector names `{target}`, which has no hooks"))
        .at(Some(at), "this host has no tools to match")
        .hint("remove this selector")
}

pub fn native_selector_unselected_target(target: Target, hook_targets: &[Target], at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::NativeSelectorUnselectedTarget,
        format!("native selector for `{target}`, but the hook targets {}", target_names(hook_targets)),
    )
    .at(Some(at), "host not targeted")
    .hint(format!("add `{target}` to the hook's targets, or remove this selector"))
}

/// `found`: the refused characters; `meant`: the names a rewrite of the regex or list habit gives
/// (`^(Write|Edit)$` → `Write`, `Edit`), empty when no rewrite is sure.
pub fn native_selector_regex(
    target: Target,
    name: &str,
    found: &[char],
    meant: &[String],
    at: &Location,
) -> Diagnostic {
    let mut shown: Vec<String> = found.iter().filter(|c| !c.is_whitespace()).map(|c| format!("`{c}`")).collect();
    if found.iter().any(|c| c.is_whitespace()) {
        shown.push("white space".to_string());
    }
    let diagnostic = Diagnostic::new(
        Code::NativeSelectorRegex,
        format!(
            "`{target}:{name}` holds {}, which no tool name has: it names no tool and the hook would never fire",
            shown.join(", ")
        ),
    )
    .at(Some(at), "not a tool name")
    .note("a native selector is one tool name, read literally except that `*` (or `.*`) stands for any run of characters; it is not a regex or a list");
    match meant {
        [] => diagnostic.hint(format!(
            "write the tool's name, or a pattern with `*` for any run of characters (`{target}:mcp__github__*`)"
        )),
        [one] => diagnostic.hint(format!("write '{target}:{one}'")),
        several => {
            let each: Vec<String> = several.iter().map(|n| format!("'{target}:{n}'")).collect();
            diagnostic.hint(format!("write one selector per tool: {}", each.join(", ")))
        }
    }
}

pub fn native_selector_empty_name(target: Target, example: Option<&str>, at: &Location) -> Diagnostic {
    let example = example.unwrap_or("mcp__github__*");
    Diagnostic::new(Code::InvalidSelector, format!("`{target}:` names no tool after the colon"))
        .at(Some(at), "no tool name")
        .hint(format!("write the host's tool name after `{target}:`, such as '{target}:{example}'"))
}

/// `other`: the hook's other selector the wildcard would swallow on `target`, if any (else the hook
/// targets `target` alone); `example`: one of the host's tool names.
pub fn native_selector_only_wildcard(
    target: Target,
    name: &str,
    other: Option<&str>,
    example: Option<&str>,
    at: &Location,
) -> Diagnostic {
    let diagnostic = match other {
        Some(other) => Diagnostic::new(
            Code::NativeSelectorOnlyWildcard,
            format!("`{target}:{name}` matches every `{target}` tool, so beside it the hook's `{other}` selects nothing"),
        )
        .hint(format!(
            "remove '{target}:{name}' to select only the named tools; to run for every `{target}` tool, declare a hook of its own with `targets: ['{target}']` and no `tools`"
        )),
        None => Diagnostic::new(
            Code::NativeSelectorOnlyWildcard,
            format!("`{target}:{name}` matches every tool of `{target}`, the only host the hook targets"),
        )
        .hint(format!(
            "leave `tools` out to run for every tool, or name the tools, such as '{target}:{}'",
            example.unwrap_or("mcp__github__*")
        )),
    };
    diagnostic.at(Some(at), "only a wildcard")
}

/// `known`: the host's tool name (`Bash`) or name prefix (`mcp__`, when `prefix`) that `name` differs
/// from only in letter case; `meant`: `name` with that case corrected.
pub fn native_selector_case(
    table: &HostName,
    name: &str,
    known: &str,
    prefix: bool,
    meant: &str,
    at: &Location,
) -> Diagnostic {
    let tools = if prefix { format!("`{known}…` tools") } else { format!("`{known}` tool") };
    Diagnostic::new(
        Code::NativeSelectorCase,
        format!(
            "`{}:{name}` never matches {}'s {tools}: the host compares tool names case-sensitively",
            table.target, table.host
        ),
    )
    .at(Some(at), "letter case differs from the host's tool")
    .hint(format!("did you mean '{}:{meant}'?", table.target))
}

pub fn hosted_tool_selector(table: &HostName, name: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::HostedToolSelector,
        format!(
            "`{}:{name}` is a hosted tool: {} runs it server-side and never fires a hook for it",
            table.target, table.host
        ),
    )
    .at(Some(at), "this tool never reaches a hook")
    .hint("remove this selector; the hook would never run for it")
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

pub fn handler_not_found(written: &str, relative: &str, similar: Option<&str>, at: &Location) -> Diagnostic {
    let hint = match similar {
        Some(similar) => format!("did you mean `./{similar}`?"),
        None => "handler paths are relative to the bundle root (the folder holding the config); create the file or fix the path".to_string(),
    };
    Diagnostic::new(Code::HandlerNotFound, format!("handler `{written}` does not exist"))
        .at(Some(at), format!("no file at `{relative}`"))
        .hint(hint)
}

pub fn handler_not_regular(written: &str, relative: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::HandlerNotFound, format!("handler `{written}` is not a regular file"))
        .at(Some(at), format!("`{relative}` is a FIFO, a socket or a device (or a link to one)"))
        .note("a build never reads such a file: it could block or never end")
        .hint("point the handler at an ordinary module file")
}

pub fn handler_is_folder(written: &str, index: Option<&str>, at: &Location) -> Diagnostic {
    let diagnostic = Diagnostic::new(Code::HandlerNotFound, format!("handler `{written}` is a folder, not a module"))
        .at(Some(at), "a folder");
    match index {
        Some(index) => diagnostic.hint(format!("did you mean `./{index}`? A handler names its module file")),
        None => diagnostic.hint("point `handler` at the module file inside the folder, e.g. `./src/hooks/guard.ts`"),
    }
}

pub fn handler_without_extension(written: &str, relative: &str, found: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::HandlerNotFound, format!("handler `{written}` lacks its extension"))
        .at(Some(at), format!("no file at `{relative}`"))
        .hint(format!("did you mean `./{found}`? Handler paths name the file with its extension"))
}

pub fn handler_outside_root(written: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::HandlerOutsideRoot, format!("handler `{written}` lies outside the bundle root"))
        .at(Some(at), "outside the bundle")
        .hint("move the handler into the bundle folder; the artifact may only carry files from inside it")
}

pub fn handler_unsupported_extension(written: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::HandlerUnsupportedExtension,
        format!("handler `{written}` is not a TypeScript or JavaScript module"),
    )
    .at(Some(at), "unsupported file type")
    .hint(format!(
        "point `handler` at a module ending in one of {}",
        list(HANDLER_EXTENSIONS.iter().map(|e| format!(".{e}")))
    ))
}

pub fn invalid_external(name: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::WrongType, format!("`bundle.external` lists `{name}`, which is not an npm package name"))
        .at(Some(at), "expected `name` or `@scope/name`")
        .hint("list packages by name, as in `import … from 'name'`; a package is shipped whole with all its files")
}

pub fn args_without_prebuilt(at: &Location) -> Diagnostic {
    Diagnostic::new(Code::ArgsWithoutPrebuilt, "`args` is only accepted with a prebuilt handler")
        .at(Some(at), "the compiled wrapper takes no arguments")
        .hint("remove `args`, or use `handler: { prebuilt: '<file in a payload>' }`")
}

/// A prebuilt handler's argument that no quoting keeps one argument in every shell `table`'s host runs
/// a command in on Windows (`shells`).
pub fn arg_unquotable(hook: &HookSite, table: &HostName, arg: &str, shells: &str) -> Diagnostic {
    Diagnostic::new(
        Code::ArgUnquotable,
        format!(
            "hook `{}` passes the argument {} to its prebuilt handler, which {} cannot run on Windows: it runs the command through {shells}, and no quoting keeps that argument whole in all of them",
            hook.name,
            serde_json::to_string(arg).expect("strings serialise"),
            table.host
        ),
    )
    .at(Some(hook.declared_at), "this hook's `args`")
    .note("inside double quotes PowerShell expands `$` and `` ` ``, cmd.exe expands `%` and `!`, and a `\"` or a trailing `\\` ends the quote early".to_string())
    .hint(format!(
        "pass the value another way (an environment variable the handler reads, a file in its payload), or leave {} out of this hook's `targets`",
        table.target
    ))
}

// ---------------------------------------------------------------------------------------------
// Payloads and prebuilt handlers

/// A payload name the plugin layout gives someone else. `taken`: who writes what there, each as
/// (writer, what it is, artifact path), e.g. (`Gemini CLI`, `plugin folder`, `gemini/`); `host_folders`:
/// the hosts' own folders, which payloads are copied into too.
pub fn reserved_payload_name(
    name: &str,
    taken: &[(String, &str, String)],
    host_folders: &[&str],
    at: &Location,
) -> Diagnostic {
    let mut writers: Vec<&str> = taken.iter().map(|(writer, _, _)| writer.as_str()).collect();
    writers.dedup();
    // One phrase per writer and role, with every path it has under that name.
    let mut groups: Vec<(&str, &str, Vec<&str>)> = Vec::new();
    for (writer, role, path) in taken {
        match groups.iter_mut().find(|(w, r, _)| *w == writer.as_str() && r == role) {
            Some((_, _, paths)) => paths.push(path),
            None => groups.push((writer, role, vec![path])),
        }
    }
    let what: Vec<String> =
        groups.iter().map(|(writer, role, paths)| format!("{writer}'s {role} ({})", list(paths))).collect();
    let folders = if host_folders.is_empty() {
        String::new()
    } else {
        format!(" and inside {}", list(host_folders.iter().map(|f| format!("{f}/"))))
    };
    Diagnostic::new(Code::ReservedPayloadName, format!("payload name `{name}` is taken by {}", what.join(" and ")))
        .at(Some(at), format!("taken by {}", writers.join(" and ")))
        .note(format!("a payload is copied to the folder its name gives, at the plugin's root{folders}"))
        .hint(format!("rename the payload (`{name}-files`), or put `{name}` inside a payload folder of another name"))
}

/// A payload name that is not one plain folder name.
pub fn invalid_payload_name(name: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::ReservedPayloadName, format!("payload name `{name}` is not a plain folder name"))
        .at(Some(at), "not one folder name")
        .hint("a payload's name is the one folder it is copied to: no `/` or `\\`, and not empty, `.` or `..`")
}

pub fn payload_source_missing(source: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::PayloadSourceMissing, format!("payload source `{source}` does not exist yet"))
        .at(Some(at), "no folder here")
        .hint("run your own build that produces it before `cargo agent-bundle build`")
}

pub fn payload_outside_root(source: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::PayloadSourceOutsideRoot, format!("payload source `{source}` lies outside the bundle root"))
        .at(Some(at), "outside the bundle")
        .hint("keep payload folders inside the bundle folder")
}

/// `payload_sources`: the declared payloads' source folders.
pub fn prebuilt_outside_payload(written: &str, payload_sources: &[&str], at: &Location) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        Code::PrebuiltOutsidePayload,
        format!("prebuilt handler `{written}` is not inside any declared payload"),
    )
    .at(Some(at), "not shipped by any payload");
    if payload_sources.is_empty() {
        diagnostic.hint("declare the folder that holds it: `payload: { runtime: { source: './dist/runtime' } }`")
    } else {
        diagnostic.hint(format!(
            "declared payload sources are {}; move the file into one or declare its folder",
            list(payload_sources.iter())
        ))
    }
}

pub fn prebuilt_not_built(written: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::PrebuiltNotBuilt, format!("prebuilt handler `{written}` does not exist yet"))
        .at(Some(at), "not built yet")
        .hint("run your own build before `cargo agent-bundle build`; `build` fails if it is still missing")
}

pub fn payload_lacks_target(payload: &str, target: Target, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::PayloadLacksTarget,
        format!("the hook runs on `{target}`, but payload `{payload}` is not shipped to `{target}`"),
    )
    .at(Some(at), "the file would be missing on this host")
    .hint(format!("add `{target}` to payload `{payload}`'s targets, or narrow the hook's targets"))
}

// ---------------------------------------------------------------------------------------------
// Event routes

pub fn unknown_route_family(path: &str, name: &str, at: &Location) -> Diagnostic {
    let families: Vec<&str> = crate::vocabulary::family::FAMILIES.iter().map(|f| f.name).collect();
    let diagnostic = Diagnostic::new(
        Code::UnknownRouteFamily,
        format!("route `{path}` names the family `{name}`, which does not exist"),
    )
    .at(Some(at), "not an event family")
    .note(format!("the families are {}", list(families.iter())));
    match did_you_mean(name, families.iter().copied()) {
        Some(family) => diagnostic.hint(format!("did you mean `{family}`? Name the file `src/events/{family}.tsx`")),
        None => diagnostic.hint("name the file after its family: `src/events/<group>/<name>.tsx` (`stop` is `src/events/stop.tsx`); start a helper module's name with `_` to keep it out of discovery"),
    }
}

pub fn duplicate_route(family: &str, path: &str, first: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::DuplicateRoute, format!("`{path}` and `{first}` both answer `{family}`"))
        .at(Some(at), "a second route for this family")
        .hint("keep one module per family; move shared code into a `_`-prefixed module")
}

pub fn unsafe_route_segment(path: &str, segment: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::UnsafeRouteSegment,
        format!("route `{path}` has the segment `{segment}`, which cannot name a family"),
    )
    .at(Some(at), "unsafe path segment")
    .hint("route paths use letters, digits and inner `.`, `_` or `-` only")
}

pub fn route_config_form(found: &Found, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::RouteConfigForm,
        format!("a route's `config` must be an object literal, found {} `{}`", found.kind, found.preview),
    )
    .at(Some(at), "not an object")
    .hint("write `export const config = { targets: ['claude'], timeoutMs: 2000 };`")
}

pub fn route_targets_invalid(key: &str, found: Option<&Found>, at: &Location) -> Diagnostic {
    let what = match found {
        Some(found) => format!("found {} `{}`", found.kind, found.preview),
        None => "found an empty array".to_string(),
    };
    Diagnostic::new(
        Code::RouteTargetsInvalid,
        format!("`config.{key}` must be a non-empty array of non-blank strings, {what}"),
    )
    .at(Some(at), "not a list of names")
    .hint(format!("write `{key}: ['…']`, or leave it out"))
}

pub fn route_timeout_invalid(found: &Found, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::RouteConfigValue,
        format!(
            "`config.timeoutMs` must be a positive number of milliseconds, found {} `{}`",
            found.kind, found.preview
        ),
    )
    .at(Some(at), "not a positive number")
    .hint("write the route's budget in milliseconds, e.g. `timeoutMs: 2000`")
}

pub fn route_enum_invalid(key: &str, value: &str, allowed: &[&str], at: &Location) -> Diagnostic {
    let otherwise = format!("write one of {}", list(allowed.iter()));
    not_one_of(Code::RouteConfigValue, &format!("config.{key}"), value, allowed, at, otherwise)
}

pub fn route_tools_on_non_tool_family(family: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::RouteConfigValue, format!("`config.tools` has no meaning on `{family}`: that family sees no tool calls"))
        .at(Some(at), "tools filter on a non-tool family")
        .hint("remove `tools`, or answer a tool family (`tool/before`, `tool/after`, `tool/failure`, `permission/request`, `permission/denied`)")
}

pub fn shared_runtime_unhosted(hook: &str, host: &HostName, why: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::SharedRuntimeUnhosted,
        format!("`{hook}` asks for the shared runtime, which {} {} cannot host, and has no standalone fallback", host.host, host.version),
    )
    .at(Some(at), "`runtime: 'shared'`")
    .note(why.to_string())
    .hint("add `fallback: 'standalone'` so the route renders in its own wrapper there, or leave that host out of its `targets`")
}

pub fn route_family_unsupported(family: &str, target: Target, reason: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::RouteFamilyUnsupported,
        format!("the route targets `{target}`, which has no `{family}` event"),
    )
    .at(Some(at), "this host lacks the family")
    .note(reason.to_string())
    .hint(format!("remove `{target}` from the route's targets"))
}

pub fn types_not_visible(importer: &Location, modules: &[&str], why: &str) -> Diagnostic {
    Diagnostic::new(
        Code::TypesNotVisible,
        format!("`{}` imports {}, and TypeScript cannot see their declarations: {why}", importer.file, list(modules.iter())),
    )
    .at(Some(importer), "imports agent-bundle's modules")
    .note("the build does not need them; editors and `tsc` do")
    .hint("run `cargo agent-bundle types` in the bundle: it writes the declarations to `.agent-bundle/types/` and maps them in tsconfig.json")
}

pub fn types_out_of_date(file: &str) -> Diagnostic {
    Diagnostic::new(
        Code::TypesOutOfDate,
        format!("`{file}` was written by another version of agent-bundle (or for other host tables)"),
    )
    .hint("run `cargo agent-bundle types` to rewrite the declarations")
}

pub fn route_requires_with_targets(requires_at: &Location, targets_at: &Location) -> Diagnostic {
    Diagnostic::new(Code::RouteRequiresInvalid, "a route's `config` sets both `requires` and `targets`")
        .at(Some(requires_at), "selects hosts by capability")
        .at(Some(targets_at), "selects hosts by name")
        .hint("keep one: `requires` picks every selected host that has the capabilities, `targets` names the hosts")
}

pub fn route_requires_unknown(row: &str, known: &[String], at: &Location) -> Diagnostic {
    let diagnostic = Diagnostic::new(Code::RouteRequiresInvalid, format!("`{row}` is not a capability row"))
        .at(Some(at), "unknown capability")
        .note("a row is `events.<family in camelCase>.<deny|allow|ask|context|rewrite>`, such as `events.toolBefore.deny`");
    match crate::vocabulary::suggest::did_you_mean(row, known.iter().map(String::as_str)) {
        Some(near) => diagnostic.hint(format!("did you mean `{near}`?")),
        None => diagnostic.hint("`cargo agent-bundle matrix` lists what each host's families can carry"),
    }
}

/// `unmet`: for each selected host, a row it lacks and why.
pub fn route_requires_unmet(path: &str, unmet: &[(Target, String, String)], at: &Location) -> Diagnostic {
    let mut diagnostic = Diagnostic::new(
        Code::RouteRequiresUnmet,
        format!("no selected host has every capability route `{path}` requires"),
    )
    .at(Some(at), "required here");
    for (target, row, reason) in unmet {
        diagnostic = diagnostic.note(format!("{target} lacks `{row}`: {reason}"));
    }
    diagnostic.hint("select a host that has them (the config's `targets`), or require less")
}

pub fn route_budget_too_long(budget_ms: u32, target: Target, deadline_ms: u64, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::RouteBudgetTooLong,
        format!("`config.timeoutMs` is {budget_ms} ms, but on {target} the wrapper must answer within {deadline_ms} ms"),
    )
    .at(Some(at), "route budget")
    .note("the wrapper's deadline is the host's timeout less room for the host to read the answer; the route's signal must abort before it")
    .hint(format!("lower `timeoutMs` below {deadline_ms}"))
}

pub fn route_component(path: &str, what: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::RouteNotAComponent, format!("route `{path}` default-exports {what}, not an async function component"))
        .at(Some(at), "not an async component")
        .hint("export the route as `export default async function Route(props) { return <Agent.Result value={{ outcome: 'continue' }} />; }`")
}

// ---------------------------------------------------------------------------------------------
// Planning per host

/// `selector_at`: where that selector is written (the `tools` element naming it).
pub fn selector_unmapped(
    hook: &HookSite,
    selector: Selector,
    selector_at: Option<&Location>,
    table: &HostName,
    reason: &str,
) -> Diagnostic {
    Diagnostic::new(
        Code::SelectorUnmapped,
        format!("tool selector `{selector}` has no equivalent on {} {}", table.host, table.version),
    )
    .at(Some(hook.declared_at), "in this hook")
    .at(selector_at.or(hook.tools_at), format!("`{selector}` does not map on `{}`", table.target))
    .for_target(table.target)
    .note(reason)
    .note("by default every selector of a hook must map on every host the hook targets")
    .hint(format!(
        "set `onMissingSelector: 'skip-selector'` (`{}` gets the hook with the selectors it has) or `'skip-host'` (it does not get the hook), drop `{selector}`, or narrow this hook's `targets`",
        table.target
    ))
}

pub fn no_applicable_selector(hook: &HookSite, target: Target) -> Diagnostic {
    Diagnostic::new(Code::NoApplicableSelector, format!("hook `{}` selects only other hosts' native tools, so `{target}` would get an empty matcher and never fire", hook.name))
        .at(Some(hook.declared_at), format!("this hook targets `{target}`"))
        .at(hook.tools_at, format!("nothing here applies to `{target}`"))
        .for_target(target)
        .hint(format!("add a selector that maps on `{target}` (a canonical one or `{target}:<tool>`), or remove `{target}` from the hook's targets"))
}

/// `receivers`: every host that has the event.
pub fn event_unsupported(hook: &HookSite, reasons: &[(Target, String)], receivers: &[Target]) -> Diagnostic {
    let mut diagnostic = Diagnostic::new(
        Code::EventUnsupported,
        format!("no selected host can receive `{}` hooks (targets: {})", hook.event, target_names(hook.targets)),
    )
    .at(Some(hook.declared_at), "would be delivered nowhere");
    for (target, reason) in reasons {
        diagnostic = diagnostic.note(format!("{target}: {reason}"));
    }
    if receivers.is_empty() {
        diagnostic.hint(format!("no host agent-bundle knows has `{}`; remove this hook", hook.event))
    } else {
        diagnostic.hint(format!(
            "target a host that has `{}` ({}), or remove this hook",
            hook.event,
            target_names(receivers)
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Building: payloads, handler modules and the artifact

pub fn payload_missing_at_build(name: &str, source: &str) -> Diagnostic {
    Diagnostic::new(Code::PayloadMissingAtBuild, format!("payload `{name}`: source folder `{source}` does not exist"))
        .hint("run the build that produces it first, or remove the payload")
}

/// `link`: the link's root-relative path; `target`: its target as written.
pub fn payload_link_broken(name: &str, link: &str, target: &str) -> Diagnostic {
    Diagnostic::new(
        Code::PayloadMissingAtBuild,
        format!("payload `{name}`: `{link}` is a symlink to `{target}`, which does not exist or holds the link itself"),
    )
    .hint("remove the link, or run the build that produces what it names first")
}

/// `source`: the payload's root-relative folder; `link`: the link's root-relative path; `target`: its
/// target as written.
pub fn payload_link_outside(name: &str, source: &str, link: &str, target: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::PayloadLinkOutside,
        format!("payload `{name}`: `{link}` is a symlink to `{target}`, outside the bundle root and its node_modules"),
    )
    .at(Some(at), "this payload")
    .note("a plugin ships only what is inside its bundle; nothing the link names was read")
    .hint(format!(
        "copy what the payload needs into it, or declare it as `{name}: {{ source: './{source}', keepOutsideLinks: true }}` to ship the link itself (it then names `{target}` on the machine that runs the plugin)"
    ))
}

pub fn prebuilt_missing_at_build(written: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::PrebuiltMissingAtBuild, format!("prebuilt handler `{written}` does not exist"))
        .at(Some(at), "nothing to ship")
        .hint("run your own build that produces it before `cargo agent-bundle build`")
}

pub fn payload_overlaps_output(name: &str, source: &str, output: &str) -> Diagnostic {
    Diagnostic::new(
        Code::PayloadOverlapsOutput,
        format!("payload `{name}` (`{source}`) and the output folder `{output}` overlap"),
    )
    .hint("build into a folder outside every payload, with `--output <dir>`")
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

fn through(chain: &[String]) -> String {
    if chain.is_empty() { String::new() } else { format!(" (through {})", list(chain)) }
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

pub fn internal_error(root: &Utf8Path, what: &str) -> Diagnostic {
    Diagnostic::new(Code::InternalError, format!("agent-bundle failed while building `{root}`: {what}"))
        .note("nothing was written for this bundle; the previous artifact is as it was, and other bundles were built")
        .hint("this is a bug in agent-bundle: please report it with the bundle that causes it")
}

pub fn output_not_an_artifact(output: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::OutputNotAnArtifact, format!("`{output}` exists and holds files agent-bundle did not write"))
        .note("a build replaces its output folder whole; agent-bundle only replaces folders that hold its own `agent-bundle.manifest.json`")
        .hint("choose an empty or new folder with `--output <dir>`, or remove this one")
}

/// Two producers of one artifact path (`first` wrote it first), each as a message names it
/// (`Claude Code's hook document`, ``payload `hooks` ``).
pub fn artifact_path_collision(path: &str, first: &str, second: &str) -> Diagnostic {
    Diagnostic::new(Code::ArtifactPathCollision, format!("{first} and {second} both write `{path}`"))
        .note("a build never lets one part of the plugin overwrite or merge into another's files")
        .hint(collision_hint(&[first, second]))
}

/// A file at `file` where another producer needs a folder for `inner`.
pub fn artifact_path_blocked(file: &str, file_producer: &str, inner: &str, inner_producer: &str) -> Diagnostic {
    Diagnostic::new(
        Code::ArtifactPathCollision,
        format!("{file_producer} writes the file `{file}`, where {inner_producer} needs a folder for `{inner}`"),
    )
    .note("a build never lets one part of the plugin overwrite or merge into another's files")
    .hint(collision_hint(&[file_producer, inner_producer]))
}

fn collision_hint(producers: &[&str]) -> String {
    if producers.iter().any(|p| p.starts_with("payload ")) {
        "rename the payload, or put its files under another folder: a payload's name is the folder it is copied to"
            .into()
    } else {
        "the host tables give two parts of the plugin one path; report it to agent-bundle".into()
    }
}

/// How many untracked files a warning names before it counts the rest.
const UNTRACKED_SHOWN: usize = 10;

/// Files (and empty folders, ending in `/`) in the output that no build wrote, kept.
pub fn untracked_artifact_files(output: &Utf8Path, paths: &[String]) -> Diagnostic {
    let shown = list(paths.iter().take(UNTRACKED_SHOWN));
    let more = match paths.len().saturating_sub(UNTRACKED_SHOWN) {
        0 => String::new(),
        more => format!(" and {more} more (`build --explain` lists them)"),
    };
    let (count, them) =
        if paths.len() == 1 { ("1 file".to_string(), "it") } else { (format!("{} files", paths.len()), "them") };
    Diagnostic::new(
        Code::UntrackedArtifactFiles,
        format!("`{output}` holds {count} no build wrote; the build kept {them}: {shown}{more}"),
    )
    .note("a build removes only what the previous build wrote (its `agent-bundle.manifest.json` lists it); the new manifest does not list these either")
    .hint("to ship a file with the plugin, keep it in the bundle and declare its folder as a payload (`payload: { docs: './docs' }`); otherwise delete it from the artifact")
}

/// Something no build wrote at `path` (artifact-relative) stands where the build writes.
pub fn untracked_in_the_way(output: &Utf8Path, path: &str, how: Obstruction<'_>) -> Diagnostic {
    let why = match how {
        Obstruction::Replaced => format!("the build writes `{path}` itself"),
        Obstruction::NeedsFolder { inner } => format!("the build needs a folder there for `{inner}`"),
        Obstruction::InsideFile { file } => format!("the build writes the file `{file}`, where this is a folder"),
    };
    Diagnostic::new(
        Code::UntrackedFileInTheWay,
        format!("`{output}/{path}` was not written by agent-bundle, and {why}"),
    )
    .note("nothing was written: a build never overwrites or deletes what its previous build did not write")
    .hint(format!("move `{path}` out of the artifact (to ship it with the plugin, declare its folder as a payload), then build again"))
}

pub fn artifact_write_failed(output: &Utf8Path, error: &std::io::Error) -> Diagnostic {
    Diagnostic::new(Code::ArtifactWriteFailed, format!("cannot write the artifact to `{output}`: {error}"))
        .note("the previous artifact, if any, is left as it was")
        .hint("check that the folder's parent exists and is writable")
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

pub fn route_fail_closed_no_deny(family: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::RouteFailClosedNoDeny,
        format!("`failClosed` has no meaning on a `{family}` route: the family cannot deny, so a failure has nothing to block"),
    )
    .at(Some(at), "fail-closed on a family that cannot deny")
    .hint("remove `failClosed`, or move the guard to a family that can deny (tool/before, prompt/submit, permission/request)")
}

pub fn fail_closed_unblockable(hook: &HookSite, table: &HostName, native: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::FailClosedUnblockable,
        format!(
            "route `{}` is fail-closed, but agent-bundle's table for {} {} records no way for a hook to block `{native}` when it fails",
            hook.name, table.host, table.version
        ),
    )
    .at(Some(at), "nothing would block on this host")
    .note(format!("a failure of the route on {} would let `{native}` go on as if the route had not run", table.host))
    .hint(format!("leave {} out of the route's `targets`, or drop `failClosed`", table.target))
}

/// `export { config } from './elsewhere'`: a route's config must be readable in the route module.
pub fn named_export_elsewhere(name: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::RouteConfigForm,
        format!("a route's `{name}` is re-exported from another module, so it cannot be read without running code"),
    )
    .at(Some(at), "re-exported from another module")
    .hint(format!("declare it in the route module: `export const {name} = {{ … }};`"))
}

/// `export function config() {}` or a class: a route's config is an object literal.
pub fn named_export_not_a_value(name: &str, what: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::RouteConfigForm, format!("a route's `{name}` must be an object literal, found {what}"))
        .at(Some(at), "not an object")
        .hint(format!("write `export const {name} = {{ targets: ['claude'], timeoutMs: 2000 }};`"))
}

// ---------------------------------------------------------------------------------------------
// Marketplace catalogs

pub fn marketplace_unreadable(path: &Utf8Path, error: &std::io::Error) -> Diagnostic {
    Diagnostic::new(Code::MarketplaceDeclarationInvalid, format!("cannot read `{path}`: {error}"))
        .hint("check the file's permissions and that it is UTF-8 text")
}

pub fn marketplace_invalid(path: &Utf8Path, line: usize, column: usize, error: &serde_json::Error) -> Diagnostic {
    Diagnostic::new(Code::MarketplaceDeclarationInvalid, format!("`{path}`:{line}:{column}: {error}"))
        .note("a marketplace declaration holds exactly `name`, `owner` (`{ \"name\", \"email\"?, \"url\"? }`) and `description`; each plugin's own facts come from its artifact")
        .hint(r#"write `{ "name": "my-hooks", "owner": { "name": "Your Name" }, "description": "What the plugins do" }`"#)
}

pub fn marketplace_name_invalid(path: &Utf8Path, name: &str) -> Diagnostic {
    Diagnostic::new(Code::MarketplaceDeclarationInvalid, format!("`{path}`: the marketplace name `{name}` is not kebab-case"))
        .note("users type it after `@` (`claude plugin install <plugin>@<marketplace>`); hosts accept lowercase letters, digits and single dashes")
        .hint(format!("name it `{}`", kebab(name)))
}

pub fn marketplace_key_empty(path: &Utf8Path, key: &str) -> Diagnostic {
    Diagnostic::new(Code::MarketplaceDeclarationInvalid, format!("`{path}`: `{key}` is empty"))
        .note("`claude plugin validate --strict` refuses a catalog without it")
        .hint(format!("give `{key}` a value"))
}

pub fn marketplace_duplicate_plugin(name: &str, first: &Utf8Path, second: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::MarketplacePluginUnlistable, format!("two plugins named `{name}`: `{first}` and `{second}`"))
        .note("a catalog lists each plugin once, by name; users install `<plugin>@<marketplace>`")
        .hint("give one of the bundles another `name` in its agent-bundle.config.ts")
}

pub fn marketplace_plugin_outside(name: &str, artifact: &Utf8Path, root: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::MarketplacePluginUnlistable, format!("plugin `{name}` is built to `{artifact}`, outside the marketplace's root `{root}`"))
        .note("a catalog names each plugin by a `./` path inside the repository it is published from")
        .hint("build into the bundle's default `artifact` folder (drop `--output`), or move the declaration up to a folder that holds both")
}

pub fn catalog_not_ours(path: &Utf8Path, marketplace: &str) -> Diagnostic {
    Diagnostic::new(
        Code::CatalogNotOurs,
        format!("`{path}` exists and is not the catalog of marketplace `{marketplace}`"),
    )
    .note("agent-bundle replaces a catalog only when its `name` is the declared marketplace's; nothing was written")
    .hint(
        "remove the file if agent-bundle should write it, or give agent-bundle.marketplace.json that catalog's `name`",
    )
}

pub fn catalog_write_failed(path: &Utf8Path, error: &std::io::Error) -> Diagnostic {
    Diagnostic::new(Code::CatalogWriteFailed, format!("cannot write `{path}`: {error}"))
        .hint("check that the folder is writable")
}

fn kebab(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() { "my-plugins".to_string() } else { out }
}

// ---------------------------------------------------------------------------------------------
// Installing built plugins

pub fn install_no_artifact(dir: &Utf8Path, detail: &str) -> Diagnostic {
    Diagnostic::new(Code::InstallArtifactInvalid, format!("`{dir}` is not a built artifact that verifies: {detail}"))
        .hint("build it first (`cargo agent-bundle build`), and point `--artifact` at the folder the build wrote")
}

pub fn install_host_not_built(host: Target, dir: &Utf8Path, built: &[Target]) -> Diagnostic {
    Diagnostic::new(Code::InstallHostUnavailable, format!("`{dir}` is not built for {host}"))
        .note(format!("it is built for {}", target_names(built)))
        .hint(format!("add `{host}` to the config's targets and build again, or leave `--host {host}` out"))
}

pub fn install_host_unsupported(host: Target, reason: &str) -> Diagnostic {
    Diagnostic::new(Code::InstallHostUnavailable, format!("agent-bundle does not install for {host}"))
        .note(reason.to_string())
        .hint(format!("leave `--host {host}` out"))
}

pub fn install_scope_unsupported(host: Target, scope: &str, scopes: &[String]) -> Diagnostic {
    Diagnostic::new(Code::InstallHostUnavailable, format!("{host} has no `{scope}` scope for plugins"))
        .note(format!("{host} installs for {}", list(scopes)))
        .hint(format!("use `--scope {}` for {host}", scopes[0]))
}

pub fn install_program_missing(host: Target, program: &str, variable: &str) -> Diagnostic {
    Diagnostic::new(Code::InstallHostUnavailable, format!("`{program}` ({host}) is not on PATH"))
        .note(format!("{host} registers plugins through its own command line"))
        .hint(format!("install {host}, or set {variable} to the program's path, or leave `--host {host}` out"))
}

pub fn install_no_host(dir: &Utf8Path, skipped: &[(Target, String)]) -> Diagnostic {
    let why: Vec<String> = skipped.iter().map(|(t, r)| format!("{t}: {r}")).collect();
    Diagnostic::new(Code::InstallHostUnavailable, format!("no host `{dir}` is built for can be installed for here"))
        .note(why.join("; "))
        .hint("install a host's program (or name it with its AGENT_BUNDLE_<HOST>_PROGRAM variable), or pick hosts with `--host`")
}

pub fn install_not_owned(path: &Utf8Path, receipt: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::InstallPathNotOwned, format!("`{path}` exists and agent-bundle did not install it"))
        .note(format!("install writes only what it owns (its receipt: `{receipt}`); nothing was changed"))
        .hint("move that file or folder away if it is an old copy of this plugin, then install again")
}

pub fn install_command_failed(
    host: Target,
    program: &Utf8Path,
    args: &[String],
    code: Option<i32>,
    output: &str,
) -> Diagnostic {
    let code = code.map_or_else(|| "no exit code (killed or timed out)".to_string(), |c| format!("exit {c}"));
    let output = output.trim();
    let tail: String = output.chars().rev().take(600).collect::<Vec<_>>().into_iter().rev().collect();
    Diagnostic::new(Code::HostCommandFailed, format!("`{program} {}` ({host}) failed: {code}", args.join(" ")))
        .note(if tail.is_empty() { "it printed nothing".to_string() } else { format!("it printed: {tail}") })
        .hint(format!("run the command yourself to see why; `cargo agent-bundle doctor` shows what {host} has now"))
}

pub fn install_write_failed(path: &Utf8Path, error: &std::io::Error) -> Diagnostic {
    Diagnostic::new(Code::InstallWriteFailed, format!("cannot write `{path}`: {error}"))
        .hint("check that the folder is writable")
}

pub fn receipt_missing(plugin: &str, path: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::ReceiptMissing, format!("`{plugin}` has no install receipt (`{path}`)"))
        .note("uninstall and doctor act only on what `cargo agent-bundle install` recorded")
        .hint(
            "check the plugin's name and `--scope`, or set AGENT_BUNDLE_HOME to the data folder it was installed with",
        )
}

pub fn receipt_unreadable(path: &Utf8Path, detail: &str) -> Diagnostic {
    Diagnostic::new(Code::ReceiptInvalid, format!("the install receipt `{path}` cannot be used: {detail}"))
        .hint("it is not one agent-bundle wrote for this plugin; remove what it names by hand, then the receipt")
}

// ---------------------------------------------------------------------------------------------
// The plugin's own MCP servers.

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

/// `what` is not placed for the hosts of `unplaced` (each with its reason, as a note); `hint` gets
/// those hosts' target names, listed.
fn not_placed(
    code: Code,
    what: &str,
    unplaced: &[(HostName, String)],
    (at, label): (&Location, &str),
    hint: impl FnOnce(String) -> String,
) -> Diagnostic {
    let hosts: Vec<String> = unplaced.iter().map(|(host, _)| format!("{} {}", host.host, host.version)).collect();
    let mut diagnostic =
        Diagnostic::new(code, format!("{what} is not placed for {}", hosts.join(", "))).at(Some(at), label);
    for (host, reason) in unplaced {
        diagnostic = diagnostic.note(format!("{}: {reason}", host.target));
    }
    diagnostic.hint(hint(list(unplaced.iter().map(|(host, _)| host.target))))
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

// The plugin's skills, commands, agents and context file.

pub fn part_source(kind: PartKind, source: &str, why: &str, at: &Location) -> Diagnostic {
    let expected = if kind.is_file() { "a Markdown file" } else { "a folder" };
    let example = match kind {
        PartKind::Skills => "`skills: './skills'`, a folder of `<name>/SKILL.md`",
        PartKind::Commands => "`commands: './commands'`, a folder of `<name>.md`",
        PartKind::Agents => "`agents: './agents'`, a folder of `<name>.md`",
        PartKind::ContextFile => "`contextFile: './CONTEXT.md'`",
    };
    Diagnostic::new(
        Code::PartSource,
        format!("`{kind}` source `{source}` is not {expected} inside the bundle root: {why}"),
    )
    .at(Some(at), why)
    .hint(format!("name {expected} inside the bundle folder, relative to it: {example}"))
}

/// `file` is the skill's folder or its `SKILL.md`, as shown; `line` where known.
pub fn skill_shape(file: &str, what: &str, at: Option<&Location>) -> Diagnostic {
    Diagnostic::new(Code::SkillShape, format!("skill `{file}` {what}"))
        .at(at, "here")
        .hint("a skill is a folder `<name>/SKILL.md` that starts with front matter: `---`, `name: <name>` (the folder's name), `description: <when to use it>`, `---`")
}

pub fn command_shape(file: &str, what: &str, at: Option<&Location>) -> Diagnostic {
    Diagnostic::new(Code::CommandShape, format!("command `{file}` {what}"))
        .at(at, "here")
        .hint("a command is `<name>.md`: the prompt it sends (`$ARGUMENTS` for what follows the command), after optional front matter such as `---`, `description: <what it does>`, `---`")
}

pub fn agent_shape(file: &str, what: &str, at: Option<&Location>) -> Diagnostic {
    Diagnostic::new(Code::AgentShape, format!("agent `{file}` {what}"))
        .at(at, "here")
        .hint("an agent is `<name>.md`: its instructions, after front matter `---`, `name: <name>`, `description: <when to use it>`, `---`")
}

/// `unplaced`: each host (as named) with why it reads no such part.
pub fn part_unplaced(kind: PartKind, unplaced: &[(HostName, String)], at: &Location) -> Diagnostic {
    not_placed(Code::PartUnplaced, &format!("`{kind}`"), unplaced, (at, "declared here"), |targets| {
        format!("give `{kind}` `{{ source, targets }}` without {targets}, or accept that those hosts go without it")
    })
}

pub fn plugin_interface(key: &str, what: &str, known: &[&str], at: &Location) -> Diagnostic {
    let diagnostic =
        Diagnostic::new(Code::PluginInterface, format!("`plugin.interface.{key}` {what}")).at(Some(at), "here");
    match did_you_mean(key, known.iter().copied()) {
        Some(near) if !known.contains(&key) => {
            diagnostic.hint(format!("did you mean `{near}`? The keys: {}", list(known)))
        }
        _ => diagnostic.hint(format!("`plugin.interface` takes {}", list(known))),
    }
}

pub fn plugin_interface_file(key: &str, path: &str, why: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::PluginInterface, format!("`plugin.interface.{key}` names `{path}`, which {why}"))
        .at(Some(at), "here")
        .hint("name a file inside the bundle folder, relative to it (`./assets/logo.png`): the build ships it at that path and the manifest names it `./…`")
}

pub fn command_argument_form(file: &str, hosts: &[Target], at: Option<&Location>) -> Diagnostic {
    Diagnostic::new(
        Code::CommandArgumentForm,
        format!("command `{file}` names arguments one by one (`$1`…`$9`), which {} cannot say", list(hosts)),
    )
    .at(at, "here")
    .hint("there `$1`… stay as written and the host appends what follows the command; write `$ARGUMENTS` and let the model split it, or give `commands` `targets` without those hosts")
}

/// `hosts`: each host with the keys its copy leaves out.
pub fn front_matter_left_out(file: &str, hosts: &[(Target, Vec<String>)], at: &Location) -> Diagnostic {
    let mut diagnostic = Diagnostic::new(
        Code::FrontMatterLeftOut,
        format!("`{file}` has front matter keys {} refuses, left out there", list(hosts.iter().map(|(t, _)| t))),
    )
    .at(Some(at), "declared here");
    for (target, keys) in hosts {
        diagnostic = diagnostic.note(format!("{target}: {}", list(keys)));
    }
    diagnostic.hint("those keys mean something on the other hosts only (a host's tool names or models); say it in the body if every host must follow it")
}
