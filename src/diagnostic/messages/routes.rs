//! Event routes: their files, their `export const config`, their families and budgets.

use super::{list, not_one_of};
use crate::diagnostic::{Code, Diagnostic, Found, HostName};
use crate::vocabulary::source::Location;
use crate::vocabulary::suggest::did_you_mean;
use crate::vocabulary::target::Target;

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

pub fn route_fail_closed_no_deny(family: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::RouteFailClosedNoDeny,
        format!("`failClosed` has no meaning on a `{family}` route: the family cannot deny, so a failure has nothing to block"),
    )
    .at(Some(at), "fail-closed on a family that cannot deny")
    .hint("remove `failClosed`, or move the guard to a family that can deny (tool/before, prompt/submit, permission/request)")
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
