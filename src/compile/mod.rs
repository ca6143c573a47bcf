//! Handler compilation: each handler module and every relative module it imports, compiled by swc
//! into ESM the wrapper imports, plus the npm packages they import, carried into the artifact.

mod graph;
mod module;

pub use graph::{
    CompileStats, CompiledHandlers, HANDLERS_DIR, HandlerEntry, PACKAGES_DIR, carried_file, compile_handlers,
    compiled_path, relative_specifier,
};
pub use module::{CompileErrors, CompiledModule, ImportRef, compile_module};
