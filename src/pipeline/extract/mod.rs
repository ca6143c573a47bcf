//! Static extraction (D2 in docs/decisions.md): parse a config module with swc and read its default export as
//! data, without running any of it. Every form D2 lists is accepted; anything that would need code
//! to run is a diagnostic pointing at it, and reading goes on so that one pass reports every problem.

mod component;
mod value;

use std::collections::HashMap;

use swc_common::{BytePos, FileName, SourceMap, Spanned, sync::Lrc};
use swc_ecma_ast::{
    ArrowExpr, ArrowFunctionBody, Decl, DefaultDecl, EsVersion, ExportSpecifier, Expr, Function, Lit, Module,
    ModuleDecl, ModuleExportName, ModuleItem, Pat, Prop, PropName, PropOrSpread, Stmt, UnaryOp, VarDeclKind,
};
use swc_ecma_parser::{EsSyntax, Syntax, TsSyntax, parse_file_as_module};

pub use component::{DefaultExport, route_default_export};
pub use value::{Node, Property, SPREAD_KEY, Value, format_number};

use crate::diagnostic::{Diagnostic, messages};
use crate::vocabulary::source::{SourceFile, Span};

/// What reading one module produced.
#[derive(Debug)]
pub struct Extracted {
    /// The exported value, when the export had a readable shape at all.
    pub value: Option<Node>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads the default export of a config module.
pub fn extract_default_export(file: &SourceFile) -> Extracted {
    with_module(file, |reader, module| reader.default_export(module))
}

/// Reads `export const <name> = …` of a module (event routes export their `config` this way).
/// `Ok(None)` in `value` means the module has no such export, which is not an error.
pub fn extract_named_export(file: &SourceFile, name: &str) -> Extracted {
    with_module(file, |reader, module| reader.named_export(module, name))
}

/// How deeply a config or route module may nest (brackets, type arguments, operator chains,
/// templates and elements together, see [`nesting`](crate::vocabulary::nesting)).
pub use crate::vocabulary::nesting::MAX_CONFIG_NESTING as MAX_TEXT_NESTING;

/// Where a config or route module nests past [`MAX_TEXT_NESTING`], if it does.
pub(crate) fn too_deep(file: &SourceFile) -> Option<crate::vocabulary::nesting::TooDeep> {
    let jsx = crate::vocabulary::nesting::jsx_in(file.display_path.as_str());
    crate::vocabulary::nesting::past_limit(&file.text, jsx, MAX_TEXT_NESTING)
}

/// The most syntax errors reported for one file: the parser recovers from some and goes on, and a
/// text can hold thousands (each a diagnostic with its source line); the first ones say what to fix.
const MAX_SYNTAX_ERRORS: usize = 20;

/// How deeply a value may nest (arrays, objects and constant references together).
pub const MAX_VALUE_DEPTH: usize = 128;

/// The stack parsing and reading run on: the parser recurses per level of nesting, and a debug
/// build's frames are large; a thread of its own keeps that independent of the caller's stack.
const PARSE_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Runs `work` on a thread with [`PARSE_STACK_BYTES`] of stack.
pub(crate) fn with_parse_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("agent-bundle-parse".into())
            .stack_size(PARSE_STACK_BYTES)
            .spawn_scoped(scope, work)
        {
            Ok(thread) => thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(error) => panic!("cannot start a parser thread: {error}"),
        }
    })
}

fn with_module(
    file: &SourceFile,
    read: impl for<'m> FnOnce(&mut Reader<'m>, &'m Module) -> Option<Node> + Send,
) -> Extracted {
    with_parse_stack(|| {
        // swc's debug builds assert things about the text that some invalid texts break (an arrow
        // after a parenthesised list of two, found by the fuzzer): a parser that gives up is a
        // syntax error of the file, never a crash of the build.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| parse_and_read(file, read))).unwrap_or_else(|panic| {
            Extracted {
                value: None,
                diagnostics: vec![messages::parser_fault(
                    &crate::io::panic_text(&*panic),
                    &file.locate(Span::new(0, 0)),
                )],
            }
        })
    })
}

fn parse_and_read(
    file: &SourceFile,
    read: impl for<'m> FnOnce(&mut Reader<'m>, &'m Module) -> Option<Node>,
) -> Extracted {
    if let Some(too_deep) = too_deep(file) {
        let offset = too_deep.offset as u32;
        let at = file.locate(Span::new(offset, offset + 1));
        return Extracted {
            value: None,
            diagnostics: vec![messages::text_nested_too_deep(too_deep.construct, MAX_TEXT_NESTING, &at)],
        };
    }
    let source_map: Lrc<SourceMap> = Default::default();
    let swc_file =
        source_map.new_source_file(FileName::Custom(file.display_path.to_string()).into(), file.text.clone());
    let mut recovered = Vec::new();
    let parsed = parse_file_as_module(&swc_file, syntax_for(file), EsVersion::latest(), None, &mut recovered);
    let base = swc_file.start_pos;
    let syntax_error = |error: &swc_ecma_parser::error::Error| {
        let span = error.span();
        let span = Span::new(span.lo.0.saturating_sub(base.0), span.hi.0.saturating_sub(base.0));
        messages::syntax_error(&error.kind().msg(), &file.locate(span))
    };
    let mut diagnostics: Vec<Diagnostic> = recovered.iter().take(MAX_SYNTAX_ERRORS).map(syntax_error).collect();
    if recovered.len() > MAX_SYNTAX_ERRORS
        && let Some(last) = diagnostics.pop()
    {
        let more = recovered.len() - MAX_SYNTAX_ERRORS;
        diagnostics.push(last.note(format!("{more} more syntax errors in this file are not shown")));
    }
    let module = match parsed {
        Ok(module) => module,
        Err(error) => {
            diagnostics.push(syntax_error(&error));
            return Extracted { value: None, diagnostics };
        }
    };
    if !diagnostics.is_empty() {
        // The tree of a file with syntax errors is a guess; reading values from it would report
        // problems that are only echoes of the syntax error.
        return Extracted { value: None, diagnostics };
    }
    let mut reader = Reader { file, base, bindings: Vec::new(), resolving: Vec::new(), depth: 0, diagnostics };
    reader.collect_top_level_bindings(&module);
    let value = read(&mut reader, &module);
    Extracted { value, diagnostics: reader.diagnostics }
}

fn syntax_for(file: &SourceFile) -> Syntax {
    let path = file.display_path.as_str();
    if path.ends_with(".ts") || path.ends_with(".mts") || path.ends_with(".cts") {
        Syntax::Typescript(TsSyntax::default())
    } else if path.ends_with(".tsx") {
        Syntax::Typescript(TsSyntax { tsx: true, ..TsSyntax::default() })
    } else {
        Syntax::Es(EsSyntax { jsx: path.ends_with(".jsx"), ..EsSyntax::default() })
    }
}

/// What a name in scope is bound to, as far as static reading cares.
#[derive(Clone, Copy)]
enum Binding<'m> {
    /// `const name = <expr>`: readable if `<expr>` is.
    Const(&'m Expr),
    /// Anything else: the words saying what it is ("a `let` binding", "an imported binding").
    NotStatic(&'static str),
}

struct Reader<'a> {
    file: &'a SourceFile,
    base: BytePos,
    /// Scopes from the module (first) to the innermost factory body (last).
    bindings: Vec<HashMap<String, Binding<'a>>>,
    /// Names being resolved right now, to report `const a = b; const b = a;` instead of looping.
    resolving: Vec<String>,
    /// How many values are being read right now, one inside the other ([`MAX_VALUE_DEPTH`]).
    depth: usize,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Reader<'a> {
    fn span(&self, span: swc_common::Span) -> Span {
        let start = span.lo.0.saturating_sub(self.base.0);
        let end = span.hi.0.saturating_sub(self.base.0);
        Span::new(start, end)
    }

    fn locate(&self, span: swc_common::Span) -> crate::vocabulary::source::Location {
        self.file.locate(self.span(span))
    }

    fn collect_top_level_bindings(&mut self, module: &'a Module) {
        let mut scope = HashMap::new();
        for item in &module.body {
            match item {
                ModuleItem::ModuleDecl(ModuleDecl::Import(import)) => {
                    for specifier in &import.specifiers {
                        scope.insert(specifier.local().sym.to_string(), Binding::NotStatic("an imported binding"));
                    }
                }
                ModuleItem::ModuleDecl(ModuleDecl::ExportDecl(export)) => declare(&mut scope, &export.decl),
                ModuleItem::Stmt(Stmt::Decl(decl)) => declare(&mut scope, decl),
                _ => {}
            }
        }
        self.bindings = vec![scope];
    }

    fn default_export(&mut self, module: &'a Module) -> Option<Node> {
        for item in &module.body {
            let ModuleItem::ModuleDecl(decl) = item else { continue };
            match decl {
                ModuleDecl::ExportDefaultExpr(export) => return self.exported_config(&export.expr),
                ModuleDecl::ExportDefaultDecl(export) => {
                    return match &export.decl {
                        DefaultDecl::Fn(function) => self.factory_function(&function.function),
                        other => {
                            let what = if matches!(other, DefaultDecl::Class(_)) { "a class" } else { "a type" };
                            self.diagnostics.push(messages::unsupported_export_shape(what, &self.locate(export.span)));
                            None
                        }
                    };
                }
                ModuleDecl::ExportNamed(named) if named.src.is_none() => {
                    for specifier in &named.specifiers {
                        let ExportSpecifier::Named(specifier) = specifier else { continue };
                        let exported_as_default = matches!(&specifier.exported,
                            Some(ModuleExportName::Ident(ident)) if &*ident.sym == "default");
                        if let (true, ModuleExportName::Ident(local)) = (exported_as_default, &specifier.orig) {
                            return self.exported_identifier(&local.sym, local.span);
                        }
                    }
                }
                ModuleDecl::TsExportAssignment(assignment) => {
                    self.diagnostics.push(messages::unsupported_export_shape(
                        "a TypeScript `export =` assignment",
                        &self.locate(assignment.span),
                    ));
                    return None;
                }
                _ => {}
            }
        }
        self.diagnostics.push(messages::no_default_export(self.file.path()));
        None
    }

    fn named_export(&mut self, module: &'a Module, name: &str) -> Option<Node> {
        for item in &module.body {
            // `export { config }`, `export { settings as config }`: the named binding, read as if
            // it were exported where it is declared; from another module, it cannot be read here.
            if let ModuleItem::ModuleDecl(ModuleDecl::ExportNamed(named)) = item {
                for specifier in &named.specifiers {
                    let ExportSpecifier::Named(specifier) = specifier else { continue };
                    let exported = specifier.exported.as_ref().unwrap_or(&specifier.orig);
                    let ModuleExportName::Ident(exported) = exported else { continue };
                    if &*exported.sym != name {
                        continue;
                    }
                    let ModuleExportName::Ident(local) = &specifier.orig else { continue };
                    if named.src.is_some() {
                        self.diagnostics.push(messages::named_export_elsewhere(name, &self.locate(specifier.span)));
                        return None;
                    }
                    return self.exported_binding(&local.sym, local.span);
                }
                continue;
            }
            let ModuleItem::ModuleDecl(ModuleDecl::ExportDecl(export)) = item else { continue };
            let binds = |ident: &swc_ecma_ast::Ident| &*ident.sym == name;
            match &export.decl {
                Decl::Fn(function) if binds(&function.ident) => {
                    self.diagnostics.push(messages::named_export_not_a_value(
                        name,
                        "a function",
                        &self.locate(export.span),
                    ));
                    return None;
                }
                Decl::Class(class) if binds(&class.ident) => {
                    self.diagnostics.push(messages::named_export_not_a_value(
                        name,
                        "a class",
                        &self.locate(export.span),
                    ));
                    return None;
                }
                _ => {}
            }
            let Decl::Var(var) = &export.decl else { continue };
            for declarator in &var.decls {
                let Pat::Ident(binding) = &declarator.name else { continue };
                if &*binding.id.sym != name {
                    continue;
                }
                if var.kind != VarDeclKind::Const {
                    let what = if var.kind == VarDeclKind::Let { "a `let` binding" } else { "a `var` binding" };
                    self.diagnostics.push(messages::non_static_value(what, &self.locate(binding.id.span)));
                    return None;
                }
                let init = declarator.init.as_deref()?;
                return Some(self.value(init));
            }
        }
        None
    }

    /// The default export's expression: `defineConfig(x)`, an object, a factory, or a name bound to one.
    fn exported_config(&mut self, expr: &'a Expr) -> Option<Node> {
        let expr = unwrap_type_syntax(expr);
        match expr {
            Expr::Call(call) => {
                let callee = call.callee.as_expr().map(|callee| unwrap_type_syntax(callee));
                let is_define_config = matches!(callee, Some(Expr::Ident(ident)) if &*ident.sym == "defineConfig");
                if !is_define_config {
                    let what = match callee {
                        Some(Expr::Ident(ident)) => format!("a call of `{}`", ident.sym),
                        _ => "a call".to_string(),
                    };
                    self.diagnostics.push(messages::unsupported_export_shape(&what, &self.locate(call.span)));
                    return None;
                }
                match call.args.as_slice() {
                    [arg] if arg.spread.is_none() => self.config_or_factory(&arg.expr),
                    _ => {
                        self.diagnostics.push(messages::define_config_arity(&self.locate(call.span)));
                        None
                    }
                }
            }
            Expr::Ident(ident) => self.exported_identifier(&ident.sym, ident.span),
            _ => self.config_or_factory(expr),
        }
    }

    /// The value a named export's local binding holds: a `const` is read as data.
    fn exported_binding(&mut self, name: &str, span: swc_common::Span) -> Option<Node> {
        match self.lookup(name) {
            Some(Binding::Const(init)) => Some(self.value(init)),
            Some(Binding::NotStatic(what)) => {
                self.diagnostics.push(messages::non_static_identifier(name, what, &self.locate(span)));
                None
            }
            None => {
                self.diagnostics.push(messages::unbound_identifier(name, &self.locate(span)));
                None
            }
        }
    }

    fn exported_identifier(&mut self, name: &str, span: swc_common::Span) -> Option<Node> {
        match self.lookup(name) {
            Some(Binding::Const(init)) if !self.resolving.iter().any(|n| n == name) => {
                self.resolving.push(name.to_string());
                let result = self.exported_config(init);
                self.resolving.pop();
                result
            }
            Some(Binding::NotStatic(what)) => {
                self.diagnostics.push(messages::non_static_identifier(name, what, &self.locate(span)));
                None
            }
            _ => {
                self.diagnostics.push(messages::unbound_identifier(name, &self.locate(span)));
                None
            }
        }
    }

    fn config_or_factory(&mut self, expr: &'a Expr) -> Option<Node> {
        match unwrap_type_syntax(expr) {
            Expr::Arrow(arrow) => self.factory_arrow(arrow),
            Expr::Fn(function) => self.factory_function(&function.function),
            Expr::Object(_) => Some(self.value(expr)),
            Expr::Ident(ident) => self.exported_identifier(&ident.sym, ident.span),
            other => {
                self.diagnostics.push(messages::unsupported_export_shape(&describe(other), &self.locate(other.span())));
                None
            }
        }
    }

    fn factory_arrow(&mut self, arrow: &'a ArrowExpr) -> Option<Node> {
        match &*arrow.body {
            ArrowFunctionBody::Expr(body) => Some(self.value(body)),
            ArrowFunctionBody::FunctionBody(body) => self.factory_body(&body.stmts, arrow.span),
        }
    }

    fn factory_function(&mut self, function: &'a Function) -> Option<Node> {
        match &function.body {
            Some(body) => self.factory_body(&body.stmts, function.span),
            None => {
                self.diagnostics.push(messages::factory_without_return(&self.locate(function.span)));
                None
            }
        }
    }

    /// A factory block: local `const`s are in scope, and the last statement must return the config.
    fn factory_body(&mut self, stmts: &'a [Stmt], span: swc_common::Span) -> Option<Node> {
        let Some(Stmt::Return(ret)) = stmts.last() else {
            self.diagnostics.push(messages::factory_without_return(&self.locate(span)));
            return None;
        };
        let Some(returned) = ret.arg.as_deref() else {
            self.diagnostics.push(messages::factory_without_return(&self.locate(ret.span)));
            return None;
        };
        let mut scope = HashMap::new();
        for stmt in &stmts[..stmts.len() - 1] {
            if let Stmt::Decl(decl) = stmt {
                declare(&mut scope, decl);
            }
        }
        self.bindings.push(scope);
        let value = Some(self.value(returned));
        self.bindings.pop();
        value
    }

    fn lookup(&self, name: &str) -> Option<Binding<'a>> {
        self.bindings.iter().rev().find_map(|scope| scope.get(name).copied())
    }

    /// Reads one value expression. Never fails: what cannot be read becomes [`Value::Unreadable`]
    /// with its diagnostic already recorded.
    fn value(&mut self, expr: &'a Expr) -> Node {
        let expr = unwrap_type_syntax(expr);
        let span = self.span(expr.span());
        if self.depth >= MAX_VALUE_DEPTH {
            let at = self.locate(expr.span());
            if !self.diagnostics.iter().any(|d| d.code == crate::diagnostic::Code::NestedTooDeep) {
                self.diagnostics.push(messages::nested_too_deep(
                    "its values and constant references",
                    MAX_VALUE_DEPTH,
                    &at,
                ));
            }
            return Node { value: Value::Unreadable, span };
        }
        self.depth += 1;
        let node = self.value_within(expr, span);
        self.depth -= 1;
        node
    }

    fn value_within(&mut self, expr: &'a Expr, span: Span) -> Node {
        let value = match expr {
            Expr::Lit(Lit::Str(s)) => Value::String(s.value.to_string_lossy().into_owned()),
            Expr::Lit(Lit::Num(n)) => Value::Number(n.value),
            Expr::Lit(Lit::Bool(b)) => Value::Bool(b.value),
            Expr::Lit(Lit::Null(_)) => Value::Null,
            Expr::Tpl(tpl) if tpl.exprs.is_empty() => {
                let text = tpl
                    .quasis
                    .iter()
                    .filter_map(|q| q.cooked.as_ref())
                    .map(|c| c.to_string_lossy().into_owned())
                    .collect();
                Value::String(text)
            }
            Expr::Unary(unary) if matches!(unary.op, UnaryOp::Minus | UnaryOp::Plus) => {
                match unwrap_type_syntax(&unary.arg) {
                    Expr::Lit(Lit::Num(n)) => {
                        Value::Number(if unary.op == UnaryOp::Minus { -n.value } else { n.value })
                    }
                    _ => self.unreadable(&describe(expr), expr.span()),
                }
            }
            Expr::Array(array) => {
                let mut items = Vec::with_capacity(array.elems.len());
                for element in &array.elems {
                    match element {
                        Some(element) if element.spread.is_none() => items.push(self.value(&element.expr)),
                        Some(element) => {
                            let spread_span =
                                element.spread.map_or(element.expr.span(), |s| s.with_hi(element.expr.span().hi));
                            items.push(Node {
                                value: self.unreadable("a spread element", spread_span),
                                span: self.span(spread_span),
                            });
                        }
                        None => items.push(Node { value: self.unreadable("an array hole", array.span), span }),
                    }
                }
                Value::Array(items)
            }
            Expr::Object(object) => Value::Object(self.object(&object.props)),
            Expr::Ident(ident) => return self.identifier_value(&ident.sym, ident.span),
            other => self.unreadable(&describe(other), other.span()),
        };
        Node { value, span }
    }

    fn identifier_value(&mut self, name: &str, span: swc_common::Span) -> Node {
        let node_span = self.span(span);
        let value = match self.lookup(name) {
            Some(Binding::Const(init)) => {
                if self.resolving.iter().any(|n| n == name) {
                    self.diagnostics.push(messages::cyclic_constant(name, &self.locate(span)));
                    Value::Unreadable
                } else {
                    self.resolving.push(name.to_string());
                    let node = self.value(init);
                    self.resolving.pop();
                    // The node keeps the span of the constant's initializer: a wrong value is fixed
                    // there, not at the reference.
                    return node;
                }
            }
            Some(Binding::NotStatic(what)) => {
                self.diagnostics.push(messages::non_static_identifier(name, what, &self.locate(span)));
                Value::Unreadable
            }
            None if name == "undefined" => {
                self.diagnostics.push(messages::undefined_value(&self.locate(span)));
                Value::Unreadable
            }
            None => {
                self.diagnostics.push(messages::unbound_identifier(name, &self.locate(span)));
                Value::Unreadable
            }
        };
        Node { value, span: node_span }
    }

    fn object(&mut self, props: &'a [PropOrSpread]) -> Vec<Property> {
        let mut properties: Vec<Property> = Vec::with_capacity(props.len());
        for prop in props {
            let (key, key_span, value) = match prop {
                PropOrSpread::Spread(spread) => {
                    let span = spread.dot3_token.with_hi(spread.expr.span().hi);
                    let value = Node { value: self.unreadable("an object spread", span), span: self.span(span) };
                    properties.push(Property { key: SPREAD_KEY.to_string(), key_span: self.span(span), value });
                    continue;
                }
                PropOrSpread::Prop(prop) => match &**prop {
                    Prop::KeyValue(kv) => {
                        let key = match &kv.key {
                            PropName::Ident(ident) => ident.sym.to_string(),
                            PropName::Str(s) => s.value.to_string_lossy().into_owned(),
                            other => {
                                let what = if matches!(other, PropName::Computed(_)) {
                                    "a computed key"
                                } else {
                                    "a numeric key"
                                };
                                self.unreadable(what, other.span());
                                continue;
                            }
                        };
                        (key, kv.key.span(), self.value(&kv.value))
                    }
                    Prop::Shorthand(ident) => {
                        (ident.sym.to_string(), ident.span, self.identifier_value(&ident.sym, ident.span))
                    }
                    other => {
                        let what = match other {
                            Prop::Method(_) => "a method",
                            Prop::Getter(_) => "a getter",
                            Prop::Setter(_) => "a setter",
                            _ => "a property with a default value",
                        };
                        self.unreadable(what, other.span());
                        continue;
                    }
                },
            };
            let key_span = self.span(key_span);
            if let Some(first) = properties.iter().find(|p| p.key == key) {
                self.diagnostics.push(messages::duplicate_key(
                    &key,
                    &self.file.locate(key_span),
                    &self.file.locate(first.key_span),
                ));
                continue;
            }
            properties.push(Property { key, key_span, value });
        }
        properties
    }

    fn unreadable(&mut self, what: &str, span: swc_common::Span) -> Value {
        self.diagnostics.push(messages::non_static_value(what, &self.locate(span)));
        Value::Unreadable
    }
}

fn declare<'m>(scope: &mut HashMap<String, Binding<'m>>, decl: &'m Decl) {
    match decl {
        Decl::Var(var) => {
            for declarator in &var.decls {
                let Pat::Ident(binding) = &declarator.name else { continue };
                let name = binding.id.sym.to_string();
                let binding = match (var.kind, declarator.init.as_deref()) {
                    (VarDeclKind::Const, Some(init)) => Binding::Const(init),
                    (VarDeclKind::Const, None) => Binding::NotStatic("a `const` without a value"),
                    (VarDeclKind::Let, _) => Binding::NotStatic("a `let` binding, which may change"),
                    (VarDeclKind::Var, _) => Binding::NotStatic("a `var` binding, which may change"),
                };
                scope.insert(name, binding);
            }
        }
        Decl::Fn(function) => {
            scope.insert(function.ident.sym.to_string(), Binding::NotStatic("a function"));
        }
        Decl::Class(class) => {
            scope.insert(class.ident.sym.to_string(), Binding::NotStatic("a class"));
        }
        _ => {}
    }
}

/// Strips what only types or grouping add: parentheses, `as`, `as const`, `satisfies`, `!` and `<T>x`.
fn unwrap_type_syntax(mut expr: &Expr) -> &Expr {
    loop {
        expr = match expr {
            Expr::Paren(e) => &e.expr,
            Expr::TsAs(e) => &e.expr,
            Expr::TsConstAssertion(e) => &e.expr,
            Expr::TsSatisfies(e) => &e.expr,
            Expr::TsNonNull(e) => &e.expr,
            Expr::TsTypeAssertion(e) => &e.expr,
            Expr::TsInstantiation(e) => &e.expr,
            _ => return expr,
        };
    }
}

/// Names an expression for a message: a call by its callee ("a call of `resolveHandler(…)`"), any
/// other expression by its kind ("a property access").
fn describe(expr: &Expr) -> String {
    if let Expr::Call(call) = expr
        && let Some(callee) = call.callee.as_expr().and_then(|c| callee_name(unwrap_type_syntax(c)))
    {
        return format!("a call of `{callee}(…)`");
    }
    describe_kind(expr).to_string()
}

/// `f`, `a.b` or `a.b.c` for a callee made of names, else nothing.
fn callee_name(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Ident(ident) => Some(ident.sym.to_string()),
        Expr::Member(member) => {
            let property = member.prop.as_ident()?.sym.to_string();
            let object = callee_name(unwrap_type_syntax(&member.obj)).unwrap_or_else(|| "…".to_string());
            Some(format!("{object}.{property}"))
        }
        Expr::This(_) => Some("this".into()),
        _ => None,
    }
}

fn describe_kind(expr: &Expr) -> &'static str {
    match expr {
        Expr::Call(_) => "a function call",
        Expr::New(_) => "a `new` expression",
        Expr::Member(_) | Expr::SuperProp(_) | Expr::OptChain(_) => "a property access",
        Expr::Bin(_) => "a binary expression",
        Expr::Unary(_) | Expr::Update(_) => "an operator expression",
        Expr::Cond(_) => "a conditional expression",
        Expr::Assign(_) => "an assignment",
        Expr::Seq(_) => "a comma expression",
        Expr::Tpl(_) => "a template literal with substitutions",
        Expr::TaggedTpl(_) => "a tagged template",
        Expr::Arrow(_) | Expr::Fn(_) => "a function",
        Expr::Class(_) => "a class",
        Expr::Await(_) => "an `await` expression",
        Expr::Yield(_) => "a `yield` expression",
        Expr::MetaProp(_) => "`import.meta`",
        Expr::This(_) => "`this`",
        Expr::Lit(Lit::Regex(_)) => "a regular expression",
        Expr::Lit(Lit::BigInt(_)) => "a bigint literal",
        Expr::Lit(_) => "a literal of an unsupported kind",
        Expr::JSXElement(_)
        | Expr::JSXFragment(_)
        | Expr::JSXMember(_)
        | Expr::JSXNamespacedName(_)
        | Expr::JSXEmpty(_) => "a JSX expression",
        _ => "an expression",
    }
}
