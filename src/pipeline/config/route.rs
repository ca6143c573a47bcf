//! A route's `export const config = {…}` (D2, D12): read statically like the bundle's config, into
//! the keys a route may set. Meaning that needs the host tables (does a target have the family?) is
//! judged in [`judge_route`].

use super::Spanned;
use crate::diagnostic::{Diagnostic, Staged, messages};
use crate::hosts;
use crate::pipeline::extract::{Node, Value};
use crate::vocabulary::family::Family;
use crate::vocabulary::source::SourceFile;
use crate::vocabulary::target::Target;

const ROUTE_KEYS: &[&str] = &["fallback", "requires", "runtime", "targets", "timeoutMs", "tools"];

/// What a route's config declares.
#[derive(Clone, Debug, Default)]
pub struct RouteConfig {
    /// `'standalone'` (the default) or `'shared'`.
    pub runtime: Option<Spanned<String>>,
    /// `'none'` or `'standalone'`: what a shared route does where no shared runtime hosts it.
    pub fallback: Option<Spanned<String>>,
    pub targets: Option<Spanned<Vec<Spanned<String>>>>,
    pub timeout_ms: Option<Spanned<f64>>,
    pub tools: Vec<Spanned<String>>,
    pub requires: Vec<Spanned<String>>,
}

/// Reads the config object of the route at `file` (`node` is its `config` export).
pub fn read_route_config(file: &SourceFile, node: &Node) -> Staged<RouteConfig> {
    let at = |node: &Node| file.locate(node.span);
    let mut config = RouteConfig::default();
    let mut diagnostics = Vec::new();
    let Value::Object(properties) = &node.value else {
        if node.value != Value::Unreadable {
            diagnostics.push(messages::route_config_form(&node.value.found(), &at(node)));
        }
        return Staged { value: config, diagnostics };
    };
    let string = |node: &Node, key: &str, diagnostics: &mut Vec<Diagnostic>| match &node.value {
        Value::String(text) => Some(Spanned { value: text.clone(), at: at(node) }),
        Value::Unreadable => None,
        other => {
            diagnostics.push(messages::wrong_type(&format!("`config.{key}`"), "a string", &other.found(), &at(node)));
            None
        }
    };
    let strings = |node: &Node, key: &str, diagnostics: &mut Vec<Diagnostic>| match &node.value {
        Value::Array(items) => Some(
            items
                .iter()
                .filter_map(|item| match &item.value {
                    Value::String(text) if !text.trim().is_empty() => {
                        Some(Spanned { value: text.trim().to_string(), at: at(item) })
                    }
                    Value::Unreadable => None,
                    other => {
                        diagnostics.push(messages::route_targets_invalid(key, Some(&other.found()), &at(item)));
                        None
                    }
                })
                .collect::<Vec<_>>(),
        ),
        Value::Unreadable => None,
        other => {
            diagnostics.push(messages::route_targets_invalid(key, Some(&other.found()), &at(node)));
            None
        }
    };
    for property in properties {
        let value = &property.value;
        match property.key.as_str() {
            "runtime" => config.runtime = string(value, "runtime", &mut diagnostics),
            "fallback" => config.fallback = string(value, "fallback", &mut diagnostics),
            "targets" => {
                let list = strings(value, "targets", &mut diagnostics);
                if list.as_ref().is_some_and(Vec::is_empty) {
                    diagnostics.push(messages::route_targets_invalid("targets", None, &at(value)));
                }
                config.targets = list.map(|list| Spanned { value: list, at: at(value) });
            }
            "timeoutMs" => match &value.value {
                Value::Number(ms) if ms.is_finite() && *ms > 0.0 => {
                    config.timeout_ms = Some(Spanned { value: *ms, at: at(value) })
                }
                Value::Unreadable => {}
                other => diagnostics.push(messages::route_timeout_invalid(&other.found(), &at(value))),
            },
            "tools" => config.tools = strings(value, "tools", &mut diagnostics).unwrap_or_default(),
            "requires" => config.requires = strings(value, "requires", &mut diagnostics).unwrap_or_default(),
            _ => diagnostics.push(messages::unknown_key(
                &property.key,
                "a route's `config`",
                ROUTE_KEYS,
                &file.locate(property.key_span),
            )),
        }
    }
    Staged { value: config, diagnostics }
}

/// Judges a route's config against the host tables: known runtimes and targets, hosts that have the
/// family, tools only on families that see tool calls, and a shared runtime that something hosts.
/// `selected` are the config's targets (with hooks).
pub fn judge_route(family: Family, config: &RouteConfig, selected: &[Target], path: &str) -> Vec<Diagnostic> {
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
    let shared = config.runtime.as_ref().is_some_and(|r| r.value == "shared");
    let falls_back = config.fallback.as_ref().is_some_and(|f| f.value == "standalone");
    if shared && !falls_back {
        let at = config.runtime.as_ref().map(|r| &r.at);
        diagnostics.push(messages::shared_runtime_unhosted(path, at));
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
