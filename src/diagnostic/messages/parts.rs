//! The plugin's skills, commands, agents and context file.

use super::{list, not_placed};
use crate::diagnostic::{Code, Diagnostic, HostName};
use crate::vocabulary::part::PartKind;
use crate::vocabulary::source::Location;
use crate::vocabulary::suggest::did_you_mean;
use crate::vocabulary::target::Target;

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
