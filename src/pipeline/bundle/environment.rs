//! What a bundled module needs from the environment it runs in, read from its code: what it imports,
//! whether it loads modules lazily or reads `import.meta`, which globals it reads, and whether it
//! generates code. A host that runs hooks in an environment of its own (Claude Code's hooks module: no
//! Node, no import, only the globals its table lists) gets a hook in-process only when its bundle
//! needs nothing more ([`unmet_needs`]); the plan settles that after bundling. Parsed with oxc, the
//! parser the bundler uses.

use oxc::allocator::Allocator;
use oxc::ast::AstKind;
use oxc::ast::ast::{Expression, UnaryOperator};
use oxc::parser::Parser;
use oxc::semantic::SemanticBuilder;
use oxc::span::SourceType;

/// What a bundled module needs from the environment it runs in, read from its code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ModuleNeeds {
    /// Specifiers of static `import … from`, `import '…'` and `export … from` declarations, in source
    /// order, each once.
    pub imports: Vec<String>,
    /// Whether the code holds an `import(…)` expression anywhere.
    pub dynamic_import: bool,
    /// Whether it reads `import.meta`.
    pub import_meta: bool,
    /// The globals it reads: names no scope of the module declares, sorted, each once; a name read
    /// only as the operand of `typeof` is left out (`typeof process !== 'undefined'` needs none).
    pub globals: Vec<String>,
    /// Whether it calls the global `eval` or `Function` (code generation).
    pub code_generation: bool,
    /// Whether it names the plugin's folders on its context (`pluginRoot`, `dataDir`): a textual
    /// test, as a word anywhere in the code (a false positive only keeps the hook a command).
    pub plugin_folders: bool,
    /// The syntax error, when the code does not parse (the other fields are then empty).
    pub parse_error: Option<String>,
}

/// Reads what the ES module `code` needs.
pub(crate) fn module_needs(code: &str) -> ModuleNeeds {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, code, SourceType::mjs()).parse();
    if let Some(error) = parsed.diagnostics.iter().find(|d| d.severity == oxc::diagnostics::Severity::Error) {
        return ModuleNeeds { parse_error: Some(error.message.to_string()), ..ModuleNeeds::default() };
    }
    let record = &parsed.module_record;
    let mut imports: Vec<(u32, String)> = record
        .requested_modules
        .iter()
        .filter_map(|(specifier, requests)| {
            let first = requests.iter().filter(|r| !r.is_type).map(|r| r.span.start).min()?;
            Some((first, specifier.to_string()))
        })
        .collect();
    imports.sort();
    let semantic = SemanticBuilder::new().with_build_nodes(true).build(&parsed.program).semantic;
    let scoping = semantic.scoping();
    let nodes = semantic.nodes();
    let mut globals = Vec::new();
    let mut code_generation = false;
    for (name, references) in scoping.root_unresolved_references() {
        let mut read = false;
        for &reference in references {
            let node = scoping.get_reference(reference).node_id();
            match nodes.parent_kind(node) {
                AstKind::UnaryExpression(unary) if unary.operator == UnaryOperator::Typeof => {}
                AstKind::CallExpression(call) if is_callee(&call.callee, node, &semantic) => {
                    code_generation |= matches!(name.as_str(), "eval" | "Function");
                    read = true;
                }
                AstKind::NewExpression(call) if is_callee(&call.callee, node, &semantic) => {
                    code_generation |= name.as_str() == "Function";
                    read = true;
                }
                _ => read = true,
            }
        }
        if read {
            globals.push(name.to_string());
        }
    }
    globals.sort();
    ModuleNeeds {
        imports: imports.into_iter().map(|(_, specifier)| specifier).collect(),
        dynamic_import: !record.dynamic_imports.is_empty(),
        import_meta: !record.import_metas.is_empty(),
        globals,
        code_generation,
        plugin_folders: ["pluginRoot", "dataDir"].iter().any(|name| names_word(code, name)),
        parse_error: None,
    }
}

/// Whether `word` occurs in `code` outside a longer identifier.
fn names_word(code: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    code.match_indices(word).any(|(i, _)| {
        !code[..i].chars().next_back().is_some_and(is_ident)
            && !code[i + word.len()..].chars().next().is_some_and(is_ident)
    })
}

/// Whether `callee` is the identifier reference node `node` (the reference is what is called, not an
/// argument of the call).
fn is_callee(callee: &Expression<'_>, node: oxc::semantic::NodeId, semantic: &oxc::semantic::Semantic<'_>) -> bool {
    match callee {
        Expression::Identifier(identifier) => {
            identifier.reference_id.get().is_some_and(|id| semantic.scoping().get_reference(id).node_id() == node)
        }
        _ => false,
    }
}

/// Why code with these needs cannot run where only `globals` exist and nothing can be imported: each
/// reason a short clause ("it imports `node:fs`"), in a stable order; empty when it can run there.
pub(crate) fn unmet_needs(needs: &ModuleNeeds, globals: &[&str]) -> Vec<String> {
    if let Some(error) = &needs.parse_error {
        return vec![format!("it does not parse: {error}")];
    }
    let mut reasons = Vec::new();
    if !needs.imports.is_empty() {
        let names: Vec<String> = needs.imports.iter().map(|s| format!("`{s}`")).collect();
        reasons.push(format!("it imports {}", names.join(", ")));
    }
    if needs.dynamic_import {
        reasons.push("it loads modules lazily with `import()`".to_string());
    }
    if needs.import_meta {
        reasons.push("it reads `import.meta`".to_string());
    }
    let missing: Vec<String> =
        needs.globals.iter().filter(|g| !globals.contains(&g.as_str())).map(|g| format!("`{g}`")).collect();
    match missing.len() {
        0 => {}
        1 => reasons.push(format!("it reads the global {}", missing[0])),
        _ => reasons.push(format!("it reads the globals {}", missing.join(", "))),
    }
    if needs.code_generation {
        reasons.push("it generates code with `eval` or `Function`, which throws there".to_string());
    }
    if needs.plugin_folders {
        reasons.push(
            "it reads the plugin's folders (`pluginRoot`, `dataDir`), and there is no file system there".to_string(),
        );
    }
    reasons
}

#[cfg(test)]
mod tests {
    use super::*;

    const WEB: &[&str] = &["console", "JSON", "URL", "structuredClone", "Error", "Promise", "eval", "Function", "Date"];

    fn needs(code: &str) -> ModuleNeeds {
        module_needs(code)
    }

    #[test]
    fn a_pure_module_needs_nothing() {
        let found = needs(
            "const x = (a) => a + 1;\nexport default async function (input) { return { outcome: 'deny', reason: `${x(1)}` }; }\n",
        );
        assert_eq!(found, ModuleNeeds::default());
        assert!(unmet_needs(&found, WEB).is_empty());
    }

    #[test]
    fn imports_are_listed_in_source_order() {
        let found = needs(
            "import fs from 'node:fs';\nexport { x } from 'pkg';\nimport 'side-effect';\nimport fs2 from 'node:fs';\n",
        );
        assert_eq!(found.imports, ["node:fs", "pkg", "side-effect"]);
        assert_eq!(unmet_needs(&found, WEB), ["it imports `node:fs`, `pkg`, `side-effect`"]);
    }

    #[test]
    fn lazy_imports_and_import_meta_are_seen() {
        let found = needs("export default async () => (await import('./chunk.mjs')).x;\n");
        assert!(found.dynamic_import && found.imports.is_empty());
        assert_eq!(unmet_needs(&found, WEB), ["it loads modules lazily with `import()`"]);
        let found = needs("export const here = import.meta.url;\n");
        assert!(found.import_meta);
        assert_eq!(unmet_needs(&found, WEB), ["it reads `import.meta`"]);
    }

    #[test]
    fn a_global_read_only_under_typeof_is_not_needed() {
        assert_eq!(needs("export const v = process.env.X;\n").globals, ["process"]);
        assert!(needs("export const node = typeof process !== 'undefined';\n").globals.is_empty());
        assert_eq!(needs("export const v = typeof process !== 'undefined' && process.env.X;\n").globals, ["process"]);
        assert!(needs("const process = { env: {} };\nexport const v = process.env.X;\n").globals.is_empty());
    }

    #[test]
    fn node_globals_are_reported_and_the_environments_are_not() {
        let found =
            needs("export const a = Buffer.from('x'); export const b = require('x'); export const c = __dirname;\n");
        assert_eq!(found.globals, ["Buffer", "__dirname", "require"]);
        assert_eq!(unmet_needs(&found, WEB), ["it reads the globals `Buffer`, `__dirname`, `require`"]);
        let found = needs("console.log(JSON.parse('1'), new URL('http://x'), structuredClone({}));\n");
        assert_eq!(found.globals, ["JSON", "URL", "console", "structuredClone"]);
        assert!(unmet_needs(&found, WEB).is_empty());
        assert_eq!(unmet_needs(&found, &["JSON", "URL", "structuredClone"]), ["it reads the global `console`"]);
    }

    #[test]
    fn code_generation_is_a_call_of_the_global_eval_or_function() {
        assert!(needs("export const v = eval('1');\n").code_generation);
        assert!(needs("export const f = new Function('return 1');\n").code_generation);
        assert!(needs("export const f = Function('return 1');\n").code_generation);
        assert!(
            !needs("function evaluate() {}\nconst eval2 = 1;\nexport const t = (x) => x instanceof Function;\n")
                .code_generation
        );
        assert!(!needs("const eval = (s) => s;\nexport const v = eval('1');\n").code_generation);
        assert_eq!(
            unmet_needs(&needs("export const v = eval('1');\n"), WEB),
            ["it generates code with `eval` or `Function`, which throws there"]
        );
    }

    #[test]
    fn code_that_does_not_parse_says_so() {
        let found = needs("export default (;\n");
        assert!(found.parse_error.is_some());
        assert_eq!(unmet_needs(&found, WEB).len(), 1);
        assert!(unmet_needs(&found, WEB)[0].starts_with("it does not parse: "));
    }
}
