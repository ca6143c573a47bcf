//! Compiling one handler module with swc: TypeScript types stripped (enums, parameter properties and
//! `import type` lowered or removed), JSX compiled, every import specifier handed to the caller to
//! rewrite, and ESM JavaScript printed. Never runs the module.

use swc_common::{FileName, GLOBALS, Globals, Mark, SourceMap, Spanned, errors::HANDLER, sync::Lrc};
use swc_ecma_ast::{
    CallExpr, Callee, EsVersion, Expr, ExprOrSpread, Lit, ModuleDecl, ModuleExportName, ModuleItem, Program, Str,
};
use swc_ecma_codegen::{Emitter, text_writer::JsWriter};
use swc_ecma_parser::{EsSyntax, Syntax, TsSyntax, parse_file_as_module};
use swc_ecma_transforms_base::{fixer::fixer, hygiene::hygiene, resolver};
use swc_ecma_transforms_react::{Options as JsxOptions, Runtime, jsx};
use swc_ecma_transforms_typescript::{Config as TsConfig, typescript};
use swc_ecma_visit::{VisitMut, VisitMutWith};

use crate::source::{SourceFile, Span};

/// An import specifier found in a module, and where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportRef {
    pub specifier: String,
    pub span: Span,
}

/// What compiling a module produced.
#[derive(Debug)]
pub struct CompiledModule {
    pub code: String,
    /// Whether the module has a default export (handlers must).
    pub has_default_export: bool,
}

/// Why a module could not be compiled: messages with their spans.
#[derive(Debug)]
pub struct CompileErrors(pub Vec<(String, Span)>);

/// Compiles `file`. `rewrite` sees every import specifier that survives type stripping (static
/// imports, re-exports, `import()` with a literal) and returns the specifier to print instead.
pub fn compile_module(
    file: &SourceFile,
    rewrite: &mut dyn FnMut(&ImportRef) -> Option<String>,
) -> Result<CompiledModule, CompileErrors> {
    let path = file.display_path.as_str();
    let typescript_source = [".ts", ".mts", ".tsx"].iter().any(|ext| path.ends_with(ext));
    let jsx_source = path.ends_with(".tsx") || path.ends_with(".jsx");
    let syntax = if typescript_source {
        Syntax::Typescript(TsSyntax { tsx: jsx_source, ..TsSyntax::default() })
    } else {
        Syntax::Es(EsSyntax { jsx: jsx_source, ..EsSyntax::default() })
    };

    let source_map: Lrc<SourceMap> = Default::default();
    let swc_file = source_map.new_source_file(FileName::Custom(path.to_string()).into(), file.text.clone());
    let base = swc_file.start_pos.0;
    let to_span = |span: swc_common::Span| Span::new(span.lo.0.saturating_sub(base), span.hi.0.saturating_sub(base));

    let mut recovered = Vec::new();
    let module = parse_file_as_module(&swc_file, syntax, EsVersion::latest(), None, &mut recovered);
    let mut errors: Vec<(String, Span)> =
        recovered.iter().map(|e| (e.kind().msg().into_owned(), to_span(e.span()))).collect();
    let module = match module {
        Ok(module) if errors.is_empty() => module,
        Ok(_) => return Err(CompileErrors(errors)),
        Err(error) => {
            errors.push((error.kind().msg().into_owned(), to_span(error.span())));
            return Err(CompileErrors(errors));
        }
    };

    let handler = swc_common::errors::Handler::with_emitter_writer(Box::new(std::io::sink()), None);
    GLOBALS.set(&Globals::new(), || {
        HANDLER.set(&handler, || {
            let unresolved = Mark::new();
            let top_level = Mark::new();
            let mut program = Program::Module(module);
            program.mutate(resolver(unresolved, top_level, typescript_source));
            if typescript_source {
                program.mutate(typescript(TsConfig::default(), unresolved, top_level));
            }
            if jsx_source {
                let options = JsxOptions { runtime: Some(Runtime::Automatic), ..JsxOptions::default() };
                program.mutate(jsx(
                    source_map.clone(),
                    None::<swc_common::comments::SingleThreadedComments>,
                    options,
                    top_level,
                    unresolved,
                ));
            }
            let mut rewriter = Rewriter { rewrite, to_span: &to_span };
            program.visit_mut_with(&mut rewriter);
            program.mutate(hygiene());
            program.mutate(fixer(None));
            if handler.has_errors() {
                return Err(CompileErrors(vec![("JSX could not be compiled".to_string(), Span::default())]));
            }
            let has_default_export = has_default_export(&program);
            let mut code = Vec::new();
            {
                let mut emitter = Emitter {
                    cfg: swc_ecma_codegen::Config::default().with_target(EsVersion::latest()),
                    cm: source_map.clone(),
                    comments: None,
                    wr: JsWriter::new(source_map.clone(), "\n", &mut code, None),
                };
                emitter.emit_program(&program).map_err(|e| CompileErrors(vec![(e.to_string(), Span::default())]))?;
            }
            let code = String::from_utf8(code).map_err(|e| CompileErrors(vec![(e.to_string(), Span::default())]))?;
            Ok(CompiledModule { code, has_default_export })
        })
    })
}

fn has_default_export(program: &Program) -> bool {
    let Program::Module(module) = program else { return false };
    module.body.iter().any(|item| match item {
        ModuleItem::ModuleDecl(ModuleDecl::ExportDefaultDecl(_) | ModuleDecl::ExportDefaultExpr(_)) => true,
        ModuleItem::ModuleDecl(ModuleDecl::ExportNamed(named)) => named.specifiers.iter().any(|s| match s {
            swc_ecma_ast::ExportSpecifier::Named(n) => {
                matches!(&n.exported, Some(ModuleExportName::Ident(i)) if &*i.sym == "default")
                    || (n.exported.is_none() && matches!(&n.orig, ModuleExportName::Ident(i) if &*i.sym == "default"))
            }
            swc_ecma_ast::ExportSpecifier::Default(_) => true,
            swc_ecma_ast::ExportSpecifier::Namespace(_) => false,
        }),
        _ => false,
    })
}

struct Rewriter<'r, 's> {
    rewrite: &'r mut dyn FnMut(&ImportRef) -> Option<String>,
    to_span: &'s dyn Fn(swc_common::Span) -> Span,
}

impl Rewriter<'_, '_> {
    fn visit_specifier(&mut self, source: &mut Str) {
        let Some(specifier) = source.value.as_str().map(str::to_string) else { return };
        let import = ImportRef { specifier, span: (self.to_span)(source.span) };
        if let Some(replacement) = (self.rewrite)(&import) {
            source.value = replacement.into();
            // Codegen prints `raw` when present; clear it so the new value is printed.
            source.raw = None;
        }
    }
}

impl VisitMut for Rewriter<'_, '_> {
    fn visit_mut_module_decl(&mut self, decl: &mut ModuleDecl) {
        match decl {
            ModuleDecl::Import(import) if !import.type_only => self.visit_specifier(&mut import.src),
            ModuleDecl::ExportAll(export) if !export.type_only => self.visit_specifier(&mut export.src),
            ModuleDecl::ExportNamed(export) if !export.type_only => {
                if let Some(src) = &mut export.src {
                    self.visit_specifier(src);
                }
            }
            _ => {}
        }
        decl.visit_mut_children_with(self);
    }

    fn visit_mut_call_expr(&mut self, call: &mut CallExpr) {
        if let Callee::Import(_) = call.callee {
            if let Some(ExprOrSpread { spread: None, expr }) = call.args.first_mut() {
                if let Expr::Lit(Lit::Str(source)) = &mut **expr {
                    self.visit_specifier(source);
                }
            }
        }
        call.visit_mut_children_with(self);
    }
}
