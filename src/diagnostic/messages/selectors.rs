//! Targets and tool selectors: canonical, native and hosted selectors, and the hosts a hook names.

use super::{list, target_names};
use crate::diagnostic::{Code, Diagnostic, HostName};
use crate::vocabulary::canonical::Selector;
use crate::vocabulary::source::Location;
use crate::vocabulary::suggest::did_you_mean;
use crate::vocabulary::target::Target;

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

pub fn target_forms_together(form: Target, base: Target, at: &Location, base_at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::TargetFormsTogether,
        format!("`targets` names both `{base}` and `{form}`, two forms of one plugin at the same place in the artifact"),
    )
    .at(Some(at), format!("`{form}` is `{base}`'s plugin with its hooks module"))
    .at(Some(base_at), format!("`{base}` runs every hook as a command"))
    .note(format!(
        "`{form}` runs the tool hooks whose bundles fit in the host's hooks module in-process and the others as `{base}` does, \
         so it replaces `{base}`"
    ))
    .hint(format!("keep one of them: `{form}` for the hooks module, `{base}` for command hooks only"))
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
