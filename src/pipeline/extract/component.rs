//! What a route module default-exports, read from its syntax: an event route's default export must
//! be an async function component (AB4810), which the route's render awaits.

use swc_common::{FileName, SourceMap, Spanned, sync::Lrc};
use swc_ecma_ast::{
    Decl, DefaultDecl, EsVersion, ExportSpecifier, Expr, Module, ModuleDecl, ModuleExportName, ModuleItem, Pat, Stmt,
};
use swc_ecma_parser::parse_file_as_module;

use super::{syntax_for, unwrap_type_syntax};
use crate::vocabulary::source::{SourceFile, Span};

/// A route module's default export, as far as its syntax tells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DefaultExport {
    /// An `async` function or arrow function (directly, or through a top-level name).
    AsyncFunction,
    /// Something else that is known: what it is, and where.
    Other { what: &'static str, span: Span },
    /// The module has no default export.
    Missing,
    /// Only running the module would tell (an import, a call): nothing is reported.
    Unknown,
}

/// A function (or arrow function) with its span: a component when it is async.
fn function(is_async: bool, span: Span) -> DefaultExport {
    if is_async {
        DefaultExport::AsyncFunction
    } else {
        DefaultExport::Other { what: "a function that is not async", span }
    }
}

pub fn route_default_export(file: &SourceFile) -> DefaultExport {
    // A parser that gives up (see `with_module`) leaves the export unknown; reading the route's
    // config reports the file.
    super::with_parse_stack(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| judge_default_export(file)))
            .unwrap_or(DefaultExport::Unknown)
    })
}

fn judge_default_export(file: &SourceFile) -> DefaultExport {
    // Too deep to parse safely: reading the route's config reports it (AB1015).
    if super::too_deep(file).is_some() {
        return DefaultExport::Unknown;
    }
    let source_map: Lrc<SourceMap> = Default::default();
    let swc_file =
        source_map.new_source_file(FileName::Custom(file.display_path.to_string()).into(), file.text.clone());
    let mut recovered = Vec::new();
    let Ok(module) = parse_file_as_module(&swc_file, syntax_for(file), EsVersion::latest(), None, &mut recovered)
    else {
        return DefaultExport::Unknown;
    };
    let base = swc_file.start_pos.0;
    let span = |s: swc_common::Span| Span::new(s.lo.0.saturating_sub(base), s.hi.0.saturating_sub(base));
    let judge_expr = |expr: &Expr| -> DefaultExport {
        match unwrap_type_syntax(expr) {
            Expr::Arrow(arrow) => function(arrow.is_async, span(arrow.span)),
            Expr::Fn(f) => function(f.function.is_async, span(f.function.span)),
            Expr::Class(class) => DefaultExport::Other { what: "a class", span: span(class.class.span) },
            Expr::Object(object) => DefaultExport::Other { what: "an object", span: span(object.span) },
            Expr::Lit(lit) => DefaultExport::Other { what: "a literal", span: span(lit.span()) },
            Expr::Array(array) => DefaultExport::Other { what: "an array", span: span(array.span) },
            _ => DefaultExport::Unknown,
        }
    };
    let binding = |name: &str| -> DefaultExport {
        for item in &module.body {
            let decl = match item {
                ModuleItem::Stmt(Stmt::Decl(decl)) => decl,
                ModuleItem::ModuleDecl(ModuleDecl::ExportDecl(export)) => &export.decl,
                _ => continue,
            };
            match decl {
                Decl::Fn(function) if &*function.ident.sym == name => {
                    return if function.function.is_async {
                        DefaultExport::AsyncFunction
                    } else {
                        DefaultExport::Other {
                            what: "a function that is not async",
                            span: span(function.function.span),
                        }
                    };
                }
                Decl::Class(class) if &*class.ident.sym == name => {
                    return DefaultExport::Other { what: "a class", span: span(class.class.span) };
                }
                Decl::Var(var) => {
                    for declarator in &var.decls {
                        if let (Pat::Ident(id), Some(init)) = (&declarator.name, &declarator.init)
                            && &*id.id.sym == name
                        {
                            return judge_expr(init);
                        }
                    }
                }
                _ => {}
            }
        }
        DefaultExport::Unknown
    };
    judge(&module, &judge_expr, &binding, &span)
}

fn judge(
    module: &Module,
    judge_expr: &dyn Fn(&Expr) -> DefaultExport,
    binding: &dyn Fn(&str) -> DefaultExport,
    span: &dyn Fn(swc_common::Span) -> Span,
) -> DefaultExport {
    for item in &module.body {
        let ModuleItem::ModuleDecl(decl) = item else { continue };
        match decl {
            ModuleDecl::ExportDefaultExpr(export) => {
                return match unwrap_type_syntax(&export.expr) {
                    Expr::Ident(ident) => binding(&ident.sym),
                    other => judge_expr(other),
                };
            }
            ModuleDecl::ExportDefaultDecl(export) => {
                return match &export.decl {
                    DefaultDecl::Fn(function) if function.function.is_async => DefaultExport::AsyncFunction,
                    DefaultDecl::Fn(function) => DefaultExport::Other {
                        what: "a function that is not async",
                        span: span(function.function.span),
                    },
                    DefaultDecl::Class(class) => DefaultExport::Other { what: "a class", span: span(class.class.span) },
                    DefaultDecl::TsInterfaceDecl(_) => DefaultExport::Unknown,
                };
            }
            ModuleDecl::ExportNamed(named) if named.src.is_none() => {
                for specifier in &named.specifiers {
                    let ExportSpecifier::Named(specifier) = specifier else { continue };
                    let exported_as_default =
                        matches!(&specifier.exported, Some(ModuleExportName::Ident(ident)) if &*ident.sym == "default");
                    if let (true, ModuleExportName::Ident(local)) = (exported_as_default, &specifier.orig) {
                        return binding(&local.sym);
                    }
                }
            }
            ModuleDecl::ExportNamed(named) if named.src.is_some() => {
                let reexports_default = named.specifiers.iter().any(|s| match s {
                    ExportSpecifier::Named(n) => {
                        matches!(&n.exported, Some(ModuleExportName::Ident(i)) if &*i.sym == "default")
                            || matches!(&n.orig, ModuleExportName::Ident(i) if &*i.sym == "default")
                    }
                    _ => false,
                });
                if reexports_default {
                    return DefaultExport::Unknown;
                }
            }
            _ => {}
        }
    }
    DefaultExport::Missing
}
