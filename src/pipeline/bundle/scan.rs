//! What a module of the bundle's own code does that bundling would accept and Node would not run:
//! syntax errors (reported at the exact place), `import()` of a computed specifier (nothing for the
//! bundler to follow, so the running hook would look for a file that is not in the artifact), and
//! `require` in an ES module (which Node refuses). Parsed with oxc, the parser the bundler uses;
//! never run.

use std::collections::BTreeMap;

use oxc::allocator::Allocator;
use oxc::parser::Parser;
use oxc::semantic::SemanticBuilder;
use oxc::span::SourceType;

use crate::vocabulary::source::Span;

#[derive(Clone, Debug, Default)]
pub(super) struct ModuleScan {
    pub syntax_errors: Vec<(String, Span)>,
    /// `import(…)` whose specifier is not a string: the specifier's span.
    pub computed_imports: Vec<Span>,
    /// Uses of a CommonJS variable (`require`, `__dirname`, `__filename`) nothing in the module
    /// declares, in an ES module: the name and where.
    pub free_commonjs: Vec<(&'static str, Span)>,
    /// Where the module first reads a file located from its own location (`readFileSync(join(__dirname,
    /// 'x'))`, directly or through a variable holding such a path), in code, not comments.
    pub reads_own_files: Option<Span>,
    /// Where the module calls `process.exit` outside a "run as a script" branch (`if
    /// (import.meta.url === pathToFileURL(process.argv[1]).href)`, `require.main === module`).
    pub process_exits: Vec<Span>,
    /// Where each statically imported specifier is first written (the string, quotes included).
    pub specifiers: BTreeMap<String, Span>,
    /// Decorators (`@name` on a class or member).
    pub decorators: Vec<Span>,
    /// The default export, when it is statically something a host's wrapper cannot call: what it is
    /// ("an object") and where.
    pub uncallable_default: Option<(&'static str, Span)>,
    /// The payload fields the default export destructures from its first parameter
    /// (`({ cwd, tool }) => …`), each where it is written.
    pub payload_reads: Vec<(String, Span)>,
    /// Where the module first reads stdin itself (`process.stdin`, `readFileSync(0)`,
    /// `readFileSync('/dev/stdin')`), in code, not in comments or strings.
    pub stdin_read: Option<Span>,
    /// The keys of the tool's native input the module reads by name (`toolInput.command`,
    /// `event.toolInput?.file_path`, `tool_input.path`), each where it is first read.
    pub tool_input_reads: Vec<(String, Span)>,
}

pub(super) fn scan(path: &str, text: &str) -> ModuleScan {
    let mut out = ModuleScan::default();
    let Ok(source_type) = SourceType::from_path(path) else { return out };
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, text, source_type).parse();
    for error in parsed.diagnostics.iter().filter(|d| d.severity == oxc::diagnostics::Severity::Error) {
        let span = error.labels.first().map_or(Span::default(), |l| Span::new(l.offset(), l.offset() + l.len()));
        out.syntax_errors.push((error.message.to_string(), span));
    }
    if !out.syntax_errors.is_empty() {
        return out;
    }
    out.decorators = decorators_in(&parsed.program);
    out.uncallable_default = uncallable_default(&parsed.program);
    out.payload_reads = payload_reads(&parsed.program);
    out.stdin_read = stdin_read(&parsed.program);
    out.tool_input_reads = tool_input_reads(&parsed.program);
    let record = &parsed.module_record;
    for (specifier, requests) in &record.requested_modules {
        if let Some(first) = requests.iter().map(|r| r.span).min_by_key(|s| s.start) {
            out.specifiers.insert(specifier.to_string(), Span::new(first.start, first.end));
        }
    }
    for import in &record.dynamic_imports {
        let written = &text[import.module_request.start as usize..import.module_request.end as usize];
        if let Some(literal) = string_literal(written) {
            out.specifiers.entry(literal).or_insert(Span::new(import.module_request.start, import.module_request.end));
        } else {
            out.computed_imports.push(Span::new(import.module_request.start, import.module_request.end));
        }
    }
    let is_es_module = record.has_module_syntax || path.ends_with(".mjs") || path.ends_with(".mts");
    if is_es_module && !path.ends_with(".cjs") && !path.ends_with(".cts") {
        let semantic = SemanticBuilder::new().with_build_nodes(true).build(&parsed.program).semantic;
        let scoping = semantic.scoping();
        for name in ["require", "__dirname", "__filename"] {
            for &reference in scoping.root_unresolved_references().get(name).into_iter().flatten() {
                let node = semantic.nodes().get_node(scoping.get_reference(reference).node_id());
                let span = oxc::span::GetSpan::span(&node.kind());
                out.free_commonjs.push((name, Span::new(span.start, span.end)));
            }
        }
        out.free_commonjs.sort_by_key(|(_, span)| *span);
    }
    let places = own_places(&parsed.program, text);
    out.reads_own_files = places.reads;
    out.process_exits = places.exits;
    out
}

/// The names a module exports directly (not through `export *`), for "did you mean".
pub(super) fn exported_names(path: &str, text: &str) -> Vec<String> {
    let Ok(source_type) = SourceType::from_path(path) else { return Vec::new() };
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, text, source_type).parse();
    let record = &parsed.module_record;
    record
        .local_export_entries
        .iter()
        .chain(record.indirect_export_entries.iter())
        .filter_map(|entry| match &entry.export_name {
            oxc::syntax::module_record::ExportExportName::Name(name) => Some(name.name.to_string()),
            _ => None,
        })
        .collect()
}

/// `require('./…')` calls a bundle still makes at run time (a UMD wrapper's `require` passed as a
/// parameter, which no bundler follows): the relative file is not in the artifact, so they can never
/// succeed. Each with its (0-based) line and column in the bundle.
pub(super) fn live_relative_requires(code: &str) -> Vec<(usize, usize, String)> {
    if !code.contains("require(\"./") && !code.contains("require(\"../") && !code.contains("require('./") {
        return Vec::new();
    }
    struct Requires(Vec<(u32, String)>);
    impl<'a> oxc::ast_visit::Visit<'a> for Requires {
        fn visit_call_expression(&mut self, call: &oxc::ast::ast::CallExpression<'a>) {
            use oxc::ast::ast::{Argument, Expression};
            if let Expression::Identifier(callee) = &call.callee
                && matches!(callee.name.as_str(), "require" | "__require")
                && let Some(Argument::StringLiteral(literal)) = call.arguments.first()
            {
                let value = literal.value.as_str();
                if value.starts_with("./") || value.starts_with("../") {
                    self.0.push((call.span.start, value.to_string()));
                }
            }
            oxc::ast_visit::walk::walk_call_expression(self, call);
        }
    }
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, code, SourceType::mjs()).parse();
    let mut found = Requires(Vec::new());
    oxc::ast_visit::Visit::visit_program(&mut found, &parsed.program);
    found
        .0
        .into_iter()
        .map(|(offset, specifier)| {
            let before = &code[..offset as usize];
            let line = before.matches('\n').count();
            let column = before.rsplit('\n').next().unwrap_or("").encode_utf16().count();
            (line, column, specifier)
        })
        .collect()
}

/// Whether bundled output still holds decorators: syntax Node does not run, which the bundler lowers
/// only in TypeScript's experimental form.
pub(super) fn output_has_decorators(code: &str) -> bool {
    if !code.contains('@') {
        return false;
    }
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, code, SourceType::mjs()).parse();
    !decorators_in(&parsed.program).is_empty()
}

/// What the default export statically is when calling it cannot work: a literal, an object, an
/// array, a class (a class is a function to `typeof`, but calling it without `new` throws), or a
/// top-level `const` or class declaration holding one of these.
fn uncallable_default(program: &oxc::ast::ast::Program<'_>) -> Option<(&'static str, Span)> {
    use oxc::ast::ast::{Declaration, ExportDefaultDeclarationKind, Expression, Statement, VariableDeclarationKind};
    use oxc::span::GetSpan;
    const CLASS: &str = "a class (calling it without `new` throws)";
    let kind = |expression: &Expression<'_>| -> Option<&'static str> {
        Some(match expression.get_inner_expression() {
            Expression::ObjectExpression(_) => "an object",
            Expression::ArrayExpression(_) => "an array",
            Expression::StringLiteral(_) | Expression::TemplateLiteral(_) => "a string",
            Expression::NumericLiteral(_) | Expression::BigIntLiteral(_) => "a number",
            Expression::BooleanLiteral(_) => "a boolean",
            Expression::NullLiteral(_) => "null",
            Expression::RegExpLiteral(_) => "a regular expression",
            Expression::ClassExpression(_) => CLASS,
            Expression::NewExpression(_) => "an object made with `new`",
            _ => return None,
        })
    };
    // What a top-level name is bound to, when it is a const or a class.
    let binding = |name: &str| -> Option<&'static str> {
        program.body.iter().find_map(|statement| {
            let declaration = match statement {
                Statement::ExportDeclaration(export) => &export.declaration,
                other => other.as_declaration()?,
            };
            match declaration {
                Declaration::ClassDeclaration(class) if class.id.as_ref().is_some_and(|id| id.name == name) => {
                    Some(CLASS)
                }
                Declaration::VariableDeclaration(variables) if variables.kind == VariableDeclarationKind::Const => {
                    variables.declarations.iter().find_map(|declarator| {
                        let id = declarator.id.get_binding_identifier()?;
                        if id.name != name {
                            return None;
                        }
                        kind(declarator.init.as_ref()?)
                    })
                }
                _ => None,
            }
        })
    };
    program.body.iter().find_map(|statement| {
        let Statement::ExportDefaultDeclaration(export) = statement else { return None };
        let found = match &export.declaration {
            ExportDefaultDeclarationKind::ClassDeclaration(_) => Some(CLASS),
            ExportDefaultDeclarationKind::FunctionDeclaration(_)
            | ExportDefaultDeclarationKind::TSInterfaceDeclaration(_) => None,
            other => {
                let expression = other.as_expression()?;
                match expression.get_inner_expression() {
                    Expression::Identifier(name) => binding(&name.name),
                    _ => kind(expression),
                }
            }
        }?;
        let span = export.declaration.span();
        Some((found, Span::new(span.start, span.end)))
    })
}

/// The keys the default export's first parameter destructures, when the default export is (or names
/// a top-level const or function that is) a function whose first parameter is an object pattern.
/// What a module does with its own place: reads of files located from it, and exits of the process.
#[derive(Default)]
struct OwnPlaces {
    reads: Option<Span>,
    exits: Vec<Span>,
}

/// The names that locate a module's own files: Node's CommonJS variables and `import.meta`'s.
const OWN_LOCATION: &[&str] =
    &["__dirname", "__filename", "import.meta.url", "import.meta.dirname", "import.meta.filename"];
/// node:fs calls that read a file or folder by path (the first argument).
const PATH_READS: &[&str] =
    &["readFileSync", "readFile", "readdirSync", "readdir", "createReadStream", "openSync", "open", "statSync"];

/// Reads of files beside the module and `process.exit` calls, found in its syntax tree: variables
/// whose initialiser mentions the module's location (or another such variable) count as locations
/// too, to a fixed point; a read whose path argument mentions one is a read beside the module. Text
/// is only looked at inside the nodes found, so comments and strings elsewhere never count.
fn own_places(program: &oxc::ast::ast::Program<'_>, text: &str) -> OwnPlaces {
    use oxc::ast::ast::{BindingPattern, CallExpression, Expression, IfStatement, VariableDeclarator};
    use oxc::ast_visit::Visit;
    let slice = |span: oxc::span::Span| &text[span.start as usize..span.end as usize];
    let mentions = |code: &str, names: &[String]| {
        OWN_LOCATION.iter().any(|needle| code.contains(needle))
            || names.iter().any(|name| super::packages::find_identifier(code, name).is_some())
    };
    #[derive(Default)]
    struct Declarators(Vec<(String, oxc::span::Span)>);
    impl<'a> Visit<'a> for Declarators {
        fn visit_variable_declarator(&mut self, declarator: &VariableDeclarator<'a>) {
            if let (BindingPattern::BindingIdentifier(id), Some(init)) = (&declarator.id, &declarator.init) {
                self.0.push((id.name.to_string(), oxc::span::GetSpan::span(init)));
            }
            oxc::ast_visit::walk::walk_variable_declarator(self, declarator);
        }
    }
    let mut declarators = Declarators::default();
    declarators.visit_program(program);
    let mut located: Vec<String> = Vec::new();
    loop {
        let more: Vec<String> = declarators
            .0
            .iter()
            .filter(|(name, init)| !located.contains(name) && mentions(slice(*init), &located))
            .map(|(name, _)| name.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        located.extend(more);
    }
    struct Calls<'t> {
        text: &'t str,
        located: Vec<String>,
        out: OwnPlaces,
        script_branch: u32,
    }
    impl<'a> Visit<'a> for Calls<'_> {
        fn visit_if_statement(&mut self, statement: &IfStatement<'a>) {
            let test = &self.text[statement.test.span().start as usize..statement.test.span().end as usize];
            let runs_as_script =
                (test.contains("process.argv") && test.contains("import.meta")) || test.contains("require.main");
            self.visit_expression(&statement.test);
            self.script_branch += u32::from(runs_as_script);
            self.visit_statement(&statement.consequent);
            self.script_branch -= u32::from(runs_as_script);
            if let Some(alternate) = &statement.alternate {
                self.visit_statement(alternate);
            }
        }
        fn visit_call_expression(&mut self, call: &CallExpression<'a>) {
            let member = match &call.callee {
                Expression::StaticMemberExpression(member) => Some(member),
                _ => None,
            };
            let name = match &call.callee {
                Expression::Identifier(callee) => Some(callee.name.as_str()),
                _ => member.map(|m| m.property.name.as_str()),
            };
            let is_exit = member.is_some_and(|m| {
                m.property.name == "exit"
                    && matches!(&m.object, Expression::Identifier(object) if object.name == "process")
            });
            if is_exit && self.script_branch == 0 {
                self.out.exits.push(Span::new(call.span.start, call.span.end));
            }
            if name.is_some_and(|name| PATH_READS.contains(&name))
                && self.script_branch == 0
                && self.out.reads.is_none()
                && let Some(first) = call.arguments.first()
            {
                let span = oxc::span::GetSpan::span(first);
                let code = &self.text[span.start as usize..span.end as usize];
                let own = OWN_LOCATION.iter().any(|needle| code.contains(needle))
                    || self.located.iter().any(|name| super::packages::find_identifier(code, name).is_some());
                if own {
                    self.out.reads = Some(Span::new(call.span.start, call.span.end));
                }
            }
            oxc::ast_visit::walk::walk_call_expression(self, call);
        }
    }
    use oxc::span::GetSpan;
    let mut calls = Calls { text, located, out: OwnPlaces::default(), script_branch: 0 };
    calls.visit_program(program);
    calls.out
}

/// The first place a program reads stdin itself: `process.stdin`, or a node:fs read of descriptor 0
/// or of `/dev/stdin`.
fn stdin_read(program: &oxc::ast::ast::Program<'_>) -> Option<Span> {
    use oxc::ast::ast::{Argument, CallExpression, Expression, StaticMemberExpression};
    use oxc::ast_visit::Visit;
    const READS: &[&str] = &["readFileSync", "readFile", "readSync", "read", "createReadStream"];
    #[derive(Default)]
    struct Reads(Option<Span>);
    impl Reads {
        fn found(&mut self, span: oxc::span::Span) {
            if self.0.is_none_or(|first| span.start < first.start) {
                self.0 = Some(Span::new(span.start, span.end));
            }
        }
    }
    impl<'a> Visit<'a> for Reads {
        fn visit_static_member_expression(&mut self, member: &StaticMemberExpression<'a>) {
            if let Expression::Identifier(object) = &member.object
                && object.name == "process"
                && member.property.name == "stdin"
            {
                self.found(member.span);
            }
            oxc::ast_visit::walk::walk_static_member_expression(self, member);
        }
        fn visit_call_expression(&mut self, call: &CallExpression<'a>) {
            let name = match &call.callee {
                Expression::Identifier(callee) => Some(callee.name.as_str()),
                Expression::StaticMemberExpression(member) => Some(member.property.name.as_str()),
                _ => None,
            };
            let stdin = match call.arguments.first() {
                Some(Argument::NumericLiteral(number)) => number.value == 0.0,
                Some(Argument::StringLiteral(text)) => text.value == "/dev/stdin",
                _ => false,
            };
            if name.is_some_and(|name| READS.contains(&name)) && stdin {
                self.found(call.span);
            }
            oxc::ast_visit::walk::walk_call_expression(self, call);
        }
    }
    let mut reads = Reads::default();
    reads.visit_program(program);
    reads.0
}

/// The keys of a tool's native input a program reads by name: `<x>.<key>` where `<x>` is a variable
/// or a property named `toolInput` (a payload's) or `tool_input` (an envelope's), each where it is
/// first read, in the order of the source.
fn tool_input_reads(program: &oxc::ast::ast::Program<'_>) -> Vec<(String, Span)> {
    use oxc::ast::ast::{Expression, StaticMemberExpression};
    use oxc::ast_visit::Visit;
    const INPUTS: &[&str] = &["toolInput", "tool_input"];
    #[derive(Default)]
    struct Reads(Vec<(String, Span)>);
    impl<'a> Visit<'a> for Reads {
        fn visit_static_member_expression(&mut self, member: &StaticMemberExpression<'a>) {
            let named = match member.object.get_inner_expression() {
                Expression::Identifier(object) => INPUTS.contains(&object.name.as_str()),
                Expression::StaticMemberExpression(object) => INPUTS.contains(&object.property.name.as_str()),
                _ => false,
            };
            let key = member.property.name.as_str();
            if named && !self.0.iter().any(|(read, _)| read == key) {
                let span = member.property.span;
                self.0.push((key.to_string(), Span::new(span.start, span.end)));
            }
            oxc::ast_visit::walk::walk_static_member_expression(self, member);
        }
    }
    let mut reads = Reads::default();
    reads.visit_program(program);
    reads.0.sort_by_key(|(_, span)| span.start);
    reads.0
}

fn payload_reads(program: &oxc::ast::ast::Program<'_>) -> Vec<(String, Span)> {
    use oxc::ast::ast::{
        BindingPattern, Declaration, ExportDefaultDeclarationKind, Expression, FormalParameters, Statement,
    };
    let keys = |params: &FormalParameters<'_>| -> Vec<(String, Span)> {
        let Some(first) = params.items.first() else { return Vec::new() };
        let pattern = match &first.pattern {
            BindingPattern::AssignmentPattern(assignment) => &assignment.left,
            other => other,
        };
        let BindingPattern::ObjectPattern(object) = pattern else { return Vec::new() };
        object
            .properties
            .iter()
            .filter_map(|property| {
                let name = property.key.static_name()?;
                let span = oxc::span::GetSpan::span(&property.key);
                Some((name.to_string(), Span::new(span.start, span.end)))
            })
            .collect()
    };
    let of_expression = |expression: &Expression<'_>| -> Option<Vec<(String, Span)>> {
        match expression.get_inner_expression() {
            Expression::ArrowFunctionExpression(arrow) => Some(keys(&arrow.params)),
            Expression::FunctionExpression(function) => Some(keys(&function.params)),
            _ => None,
        }
    };
    let binding = |name: &str| -> Option<Vec<(String, Span)>> {
        program.body.iter().find_map(|statement| {
            let declaration = match statement {
                Statement::ExportDeclaration(export) => &export.declaration,
                other => other.as_declaration()?,
            };
            match declaration {
                Declaration::FunctionDeclaration(function)
                    if function.id.as_ref().is_some_and(|id| id.name == name) =>
                {
                    Some(keys(&function.params))
                }
                Declaration::VariableDeclaration(variables) => variables.declarations.iter().find_map(|declarator| {
                    (declarator.id.get_binding_identifier()?.name == name)
                        .then(|| of_expression(declarator.init.as_ref()?))
                        .flatten()
                }),
                _ => None,
            }
        })
    };
    program
        .body
        .iter()
        .find_map(|statement| {
            let Statement::ExportDefaultDeclaration(export) = statement else { return None };
            match &export.declaration {
                ExportDefaultDeclarationKind::FunctionDeclaration(function) => Some(keys(&function.params)),
                other => {
                    let expression = other.as_expression()?;
                    match expression.get_inner_expression() {
                        Expression::Identifier(name) => binding(&name.name),
                        _ => of_expression(expression),
                    }
                }
            }
        })
        .unwrap_or_default()
}

fn decorators_in(program: &oxc::ast::ast::Program<'_>) -> Vec<Span> {
    struct Decorators(Vec<Span>);
    impl<'a> oxc::ast_visit::Visit<'a> for Decorators {
        fn visit_decorator(&mut self, decorator: &oxc::ast::ast::Decorator<'a>) {
            self.0.push(Span::new(decorator.span.start, decorator.span.end));
        }
    }
    let mut found = Decorators(Vec::new());
    oxc::ast_visit::Visit::visit_program(&mut found, program);
    found.0
}

/// The value of a string literal or a substitution-free template, as written in source.
fn string_literal(written: &str) -> Option<String> {
    let written = written.trim();
    let quote = written.chars().next()?;
    if !matches!(quote, '\'' | '"' | '`') || !written.ends_with(quote) || written.len() < 2 {
        return None;
    }
    let inner = &written[1..written.len() - 1];
    (!(quote == '`' && inner.contains("${"))).then(|| inner.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_computed_imports_and_free_requires_in_es_modules() {
        let text = "import a from 'a';\nconst name = 'fs';\nexport default async () => {\n  await import(name);\n  await import(`./x${name}`);\n  await import('./lazy');\n  return require('fs');\n};\n";
        let found = scan("src/h.ts", text);
        assert!(found.syntax_errors.is_empty());
        let shown = |span: &Span| &text[span.start as usize..span.end as usize];
        assert_eq!(found.computed_imports.iter().map(shown).collect::<Vec<_>>(), ["name", "`./x${name}`"]);
        assert_eq!(found.free_commonjs.iter().map(|(_, s)| shown(s)).collect::<Vec<_>>(), ["require"]);
        assert_eq!(found.specifiers.keys().collect::<Vec<_>>(), ["./lazy", "a"]);
    }

    #[test]
    fn a_declared_require_and_commonjs_modules_are_fine() {
        let declared = "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nexport default () => require('fs');\n";
        assert!(scan("src/h.ts", declared).free_commonjs.is_empty());
        assert!(scan("src/h.cjs", "module.exports = () => require('fs');\n").free_commonjs.is_empty());
        assert!(scan("src/h.js", "module.exports = () => require('fs');\n").free_commonjs.is_empty());
        let dirname = "export default () => require('path').join(__dirname, 'x');\n";
        let names: Vec<&str> = scan("src/h.ts", dirname).free_commonjs.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["require", "__dirname"]);
    }

    #[test]
    fn decorators_are_found_in_sources_and_in_output() {
        let text = "function d(v: unknown) { return v; }\nclass K { @d m() {} }\nexport default K;\n";
        assert_eq!(scan("src/h.ts", text).decorators.len(), 1);
        assert!(output_has_decorators("class K { @d m() {} }"));
        assert!(!output_has_decorators("const x = '@d'; /* @license */"));
    }

    #[test]
    fn relative_requires_left_in_a_bundle_are_found_with_their_module() {
        let code = "//#region node_modules/umd/main.js\n(function (factory) { factory(require); })(function (require) {\n  return require(\"./impl/format\");\n});\n//#endregion\nconst fs = __require(\"fs\");\n";
        assert_eq!(live_relative_requires(code), [(2, 9, "./impl/format".to_string())]);
        assert!(live_relative_requires("const fs = __require(\"fs\");").is_empty());
    }

    #[test]
    fn syntax_errors_carry_their_place() {
        let found = scan("src/h.ts", "export default (event =>;\n");
        assert_eq!(found.syntax_errors.len(), 1);
        assert!(found.syntax_errors[0].1.start > 0);
    }

    /// Truncated modules never panic the scan: each cut parses or reports errors with a message.
    #[test]
    fn the_payload_fields_a_default_export_destructures_are_found_in_every_form() {
        let reads = |text: &str| -> Vec<String> {
            scan("src/h.ts", text).payload_reads.into_iter().map(|(field, _)| field).collect()
        };
        assert_eq!(reads("export default ({ cwd, tool }) => undefined;"), ["cwd", "tool"]);
        assert_eq!(reads("export default function ({ reentry = false }: { reentry?: boolean }) {}"), ["reentry"]);
        assert_eq!(reads("const h = ({ cwd }: { cwd?: string }) => undefined;\nexport default h;"), ["cwd"]);
        assert_eq!(reads("function h({ sessionId: id }) {}\nexport default h;"), ["sessionId"]);
        assert_eq!(reads("export default (({ prompt }) => undefined) satisfies unknown;"), ["prompt"]);
        assert_eq!(reads("export default ({ cwd } = {}) => undefined;"), ["cwd"]);
        assert!(reads("export default (event) => event.cwd;").is_empty(), "no pattern, nothing seen statically");
        assert!(reads("export default ({ ...rest }) => rest;").is_empty());
    }

    #[test]
    fn the_native_tool_input_keys_a_module_reads_are_found() {
        let reads = |text: &str| -> Vec<String> {
            scan("src/h.ts", text).tool_input_reads.into_iter().map(|(key, _)| key).collect()
        };
        assert_eq!(reads("export default ({ toolInput }) => toolInput.command ?? toolInput.command;"), ["command"]);
        assert_eq!(
            reads("export default (e) => [e.toolInput?.file_path, e.toolInput.content];"),
            ["file_path", "content"]
        );
        assert_eq!(reads("const x = JSON.parse(s).tool_input.path;"), ["path"]);
        assert_eq!(
            reads("export default ({ toolInput }: { toolInput: any }) => (toolInput as any).command;"),
            ["command"]
        );
        assert!(reads("export default ({ tool }) => tool.command; // toolInput.command").is_empty());
        assert!(reads("const s = 'toolInput.command';").is_empty());
    }

    #[test]
    fn a_read_of_stdin_is_found_in_code_and_not_in_comments_or_strings() {
        fn found(text: &str) -> Option<&str> {
            scan("x.ts", text).stdin_read.map(|span| &text[span.start as usize..span.end as usize])
        }
        let cases = [
            (
                "import { readFileSync } from 'node:fs';\nconst e = readFileSync(0, 'utf8');",
                Some("readFileSync(0, 'utf8')"),
            ),
            ("import fs from 'node:fs';\nfs.readFileSync('/dev/stdin');", Some("fs.readFileSync('/dev/stdin')")),
            ("export default async () => { for await (const c of process.stdin) {} };", Some("process.stdin")),
            ("import fs from 'node:fs';\nfs.readSync(0, buf);", Some("fs.readSync(0, buf)")),
            ("// readFileSync(0) and process.stdin in a comment\nconst s = 'process.stdin';", None),
            (
                "import { readFileSync } from 'node:fs';\nreadFileSync(1); readFileSync('/dev/stdout'); other.stdin;",
                None,
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(found(text), expected, "{text}");
        }
    }

    #[test]
    fn every_truncation_of_a_handler_scans_or_reports() {
        let handlers = [
            "testdata/bundles/typescript-features/src/lib/risk.ts",
            "testdata/bundles/typescript-features/src/hooks/summary.tsx",
            "testdata/bundles/showcase/src/hooks/guard-shell.ts",
        ];
        for path in handlers {
            let text = std::fs::read_to_string(path).unwrap();
            for cut in text.char_indices().map(|(i, _)| i).step_by(5) {
                let found = scan(path, &text[..cut]);
                assert!(found.syntax_errors.iter().all(|(message, _)| !message.is_empty()), "{path} cut at {cut}");
            }
        }
    }

    #[test]
    fn a_default_export_that_cannot_be_called_is_found() {
        let kind = |text: &str| scan("src/h.ts", text).uncallable_default.map(|(what, _)| what);
        assert_eq!(kind("export default { run() {} };\n"), Some("an object"));
        assert_eq!(kind("const handler = { run() {} };\nexport default handler;\n"), Some("an object"));
        assert_eq!(kind("export default class Guard {}\n"), Some("a class (calling it without `new` throws)"));
        assert_eq!(kind("class Guard {}\nexport default Guard;\n"), Some("a class (calling it without `new` throws)"));
        assert_eq!(kind("export default 'deny';\n"), Some("a string"));
        assert_eq!(kind("export default () => undefined;\n"), None);
        assert_eq!(kind("export default function handle() {}\n"), None);
        assert_eq!(kind("const handle = () => undefined;\nexport default handle;\n"), None);
        assert_eq!(kind("import make from './make';\nexport default make();\n"), None);
    }
}
