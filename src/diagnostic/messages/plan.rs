//! Planning per host: selectors a host lacks, events it does not send, guards it cannot block.

use super::target_names;
use crate::diagnostic::{Code, Diagnostic, HookSite, HostName};
use crate::vocabulary::canonical::Selector;
use crate::vocabulary::source::Location;
use crate::vocabulary::target::Target;

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
