//! Finding the config and reading it as data: discovery, the parser, the forms extraction reads.

use camino::Utf8Path;

use super::list;
use crate::diagnostic::{Code, Diagnostic};
use crate::vocabulary::canonical::CONFIG_FILE_NAMES;
use crate::vocabulary::nesting::Construct;
use crate::vocabulary::source::Location;

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
