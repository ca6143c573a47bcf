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

use crate::source::Span;

#[derive(Clone, Debug, Default)]
pub(super) struct ModuleScan {
    pub syntax_errors: Vec<(String, Span)>,
    /// `import(…)` whose specifier is not a string: the specifier's span.
    pub computed_imports: Vec<Span>,
    /// Uses of a `require` nothing in the module declares, in an ES module.
    pub free_requires: Vec<Span>,
    /// Where each statically imported specifier is first written (the string, quotes included).
    pub specifiers: BTreeMap<String, Span>,
    /// Decorators (`@name` on a class or member).
    pub decorators: Vec<Span>,
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
        if let Some(references) = scoping.root_unresolved_references().get("require") {
            for &reference in references.iter() {
                let node = semantic.nodes().get_node(scoping.get_reference(reference).node_id());
                let span = oxc::span::GetSpan::span(&node.kind());
                out.free_requires.push(Span::new(span.start, span.end));
            }
        }
        out.free_requires.sort();
    }
    out
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
        assert_eq!(found.free_requires.iter().map(shown).collect::<Vec<_>>(), ["require"]);
        assert_eq!(found.specifiers.keys().collect::<Vec<_>>(), ["./lazy", "a"]);
    }

    #[test]
    fn a_declared_require_and_commonjs_modules_are_fine() {
        let declared = "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nexport default () => require('fs');\n";
        assert!(scan("src/h.ts", declared).free_requires.is_empty());
        assert!(scan("src/h.cjs", "module.exports = () => require('fs');\n").free_requires.is_empty());
        assert!(scan("src/h.js", "module.exports = () => require('fs');\n").free_requires.is_empty());
    }

    #[test]
    fn decorators_are_found_in_sources_and_in_output() {
        let text = "function d(v: unknown) { return v; }\nclass K { @d m() {} }\nexport default K;\n";
        assert_eq!(scan("src/h.ts", text).decorators.len(), 1);
        assert!(output_has_decorators("class K { @d m() {} }"));
        assert!(!output_has_decorators("const x = '@d'; /* @license */"));
    }

    #[test]
    fn syntax_errors_carry_their_place() {
        let found = scan("src/h.ts", "export default (event =>;\n");
        assert_eq!(found.syntax_errors.len(), 1);
        assert!(found.syntax_errors[0].1.start > 0);
    }

    /// Truncated modules never panic the scan: each cut parses or reports errors with a message.
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
}
