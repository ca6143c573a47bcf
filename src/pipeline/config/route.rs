//! A route's `export const config = {…}` (D2, D12): read statically like the bundle's config, into
//! the keys a route may set. Meaning that needs the host tables (does a target have the family?) is
//! judged in [`judge_route`].

use super::Spanned;
use super::read::Reader;
use crate::diagnostic::{Diagnostic, Staged, messages};
use crate::hosts;
use crate::pipeline::extract::{Node, Value};
use crate::vocabulary::family::Family;
use crate::vocabulary::source::SourceFile;
use crate::vocabulary::target::Target;

const ROUTE_KEYS: &[&str] = &[
    "failClosed",
    "fallback",
    "maxInputBytes",
    "onMissingSelector",
    "requires",
    "runtime",
    "targets",
    "timeout",
    "timeoutMs",
    "tools",
];

/// What a route's config declares.
#[derive(Clone, Debug, Default)]
pub struct RouteConfig {
    /// `'standalone'` (the default) or `'shared'`.
    pub runtime: Option<Spanned<String>>,
    /// `'none'` or `'standalone'`: what a shared route does where no shared runtime hosts it.
    pub fallback: Option<Spanned<String>>,
    pub targets: Option<Spanned<Vec<Spanned<String>>>>,
    pub timeout_ms: Option<Spanned<f64>>,
    /// `timeout`: the host's timeout for the route's entry, in seconds, as a config hook declares
    /// it (not yet checked to be a whole number in range).
    pub timeout: Option<Spanned<f64>>,
    pub tools: Vec<Spanned<String>>,
    pub requires: Vec<Spanned<String>>,
    /// `failClosed: true`: any failure of the route blocks (families that can deny; D13).
    pub fail_closed: Option<Spanned<bool>>,
    /// `maxInputBytes`: the wrapper's stdin limit for this route (D13), not yet range-checked.
    pub max_input_bytes: Option<Spanned<f64>>,
    /// `onMissingSelector`: what the route does on a host that lacks one of its selectors.
    pub on_missing_selector: Option<Spanned<String>>,
}

/// Reads the config object of the route at `file` (`node` is its `config` export).
pub fn read_route_config(file: &SourceFile, node: &Node) -> Staged<RouteConfig> {
    let mut reader = Reader::new(file);
    let mut config = RouteConfig::default();
    let Value::Object(properties) = &node.value else {
        if node.value != Value::Unreadable {
            reader.diagnostics.push(messages::route_config_form(&node.value.found(), &reader.at(node)));
        }
        return Staged { value: config, diagnostics: reader.diagnostics };
    };
    let string = |reader: &mut Reader<'_>, node: &Node, key: &str| {
        let value = reader.string(node, &format!("config.{key}"))?;
        Some(Spanned { value, at: reader.at(node) })
    };
    // A list of non-blank names; anything else is AB4825, the routes' own code for it.
    let strings = |reader: &mut Reader<'_>, node: &Node, key: &str| match &node.value {
        Value::Array(items) => Some(
            items
                .iter()
                .filter_map(|item| match &item.value {
                    Value::String(text) if !text.trim().is_empty() => {
                        Some(Spanned { value: text.trim().to_string(), at: reader.at(item) })
                    }
                    Value::Unreadable => None,
                    other => {
                        let at = reader.at(item);
                        reader.diagnostics.push(messages::route_targets_invalid(key, Some(&other.found()), &at));
                        None
                    }
                })
                .collect::<Vec<_>>(),
        ),
        Value::Unreadable => None,
        other => {
            let at = reader.at(node);
            reader.diagnostics.push(messages::route_targets_invalid(key, Some(&other.found()), &at));
            None
        }
    };
    for property in properties {
        let value = &property.value;
        match property.key.as_str() {
            "runtime" => config.runtime = string(&mut reader, value, "runtime"),
            "fallback" => config.fallback = string(&mut reader, value, "fallback"),
            "targets" => {
                let list = strings(&mut reader, value, "targets");
                if list.as_ref().is_some_and(Vec::is_empty) {
                    reader.diagnostics.push(messages::route_targets_invalid("targets", None, &reader.at(value)));
                }
                config.targets = list.map(|list| Spanned { value: list, at: reader.at(value) });
            }
            "timeoutMs" => match &value.value {
                Value::Number(ms) if ms.is_finite() && *ms > 0.0 => {
                    config.timeout_ms = Some(Spanned { value: *ms, at: reader.at(value) })
                }
                Value::Unreadable => {}
                other => reader.diagnostics.push(messages::route_timeout_invalid(&other.found(), &reader.at(value))),
            },
            "timeout" => config.timeout = reader.number(value, "config.timeout"),
            "tools" => config.tools = strings(&mut reader, value, "tools").unwrap_or_default(),
            "requires" => config.requires = strings(&mut reader, value, "requires").unwrap_or_default(),
            "failClosed" => config.fail_closed = reader.boolean(value, "config.failClosed"),
            "maxInputBytes" => config.max_input_bytes = reader.number(value, "config.maxInputBytes"),
            "onMissingSelector" => config.on_missing_selector = string(&mut reader, value, "onMissingSelector"),
            _ => reader.unknown_key(property, ROUTE_KEYS, "a route's `config`"),
        }
    }
    Staged { value: config, diagnostics: reader.diagnostics }
}

/// Judges a route's config against the host tables: known runtimes and targets, hosts that have the
/// family, tools only on families that see tool calls, and a shared runtime that something hosts.
/// `selected` are the config's targets (with hooks).
pub fn judge_route(family: Family, config: &RouteConfig, selected: &[Target]) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    if let Some(runtime) = &config.runtime
        && !matches!(runtime.value.as_str(), "standalone" | "shared")
    {
        diagnostics.push(messages::route_enum_invalid(
            "runtime",
            &runtime.value,
            &["standalone", "shared"],
            &runtime.at,
        ));
    }
    if let Some(fallback) = &config.fallback
        && !matches!(fallback.value.as_str(), "none" | "standalone")
    {
        diagnostics.push(messages::route_enum_invalid(
            "fallback",
            &fallback.value,
            &["none", "standalone"],
            &fallback.at,
        ));
    }
    if let Some(flag) = config.fail_closed.as_ref().filter(|flag| flag.value)
        && !family.deny
    {
        diagnostics.push(messages::route_fail_closed_no_deny(family.name, &flag.at));
    }
    if !config.tools.is_empty() && !family.tools {
        diagnostics.push(messages::route_tools_on_non_tool_family(family.name, &config.tools[0].at));
    }
    if let Some(targets) = &config.targets {
        for name in &targets.value {
            match Target::from_name(&name.value) {
                Some(target) if selected.contains(&target) => {
                    if let Err(reason) = hosts::table(target).family(family) {
                        diagnostics.push(messages::route_family_unsupported(family.name, target, reason, &name.at));
                    }
                }
                Some(target) => diagnostics.push(messages::entry_target_not_selected(target, selected, &name.at)),
                None => diagnostics.push(messages::unknown_entry_target(&name.value, &name.at)),
            }
        }
    }
    diagnostics
}
