//! Handler modules as declared (where they are, what they are) and a prebuilt handler's `args`.

use super::list;
use crate::diagnostic::{Code, Diagnostic, HookSite, HostName};
use crate::vocabulary::canonical::HANDLER_EXTENSIONS;
use crate::vocabulary::source::Location;

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
