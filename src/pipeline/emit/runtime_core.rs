//! The runtime's core, kept in one file per concern under `runtime/` and shipped as one text: the
//! list of its pieces, in order, written once. `runtime_core!("runtime/")` (the folder relative to
//! the file that invokes it) is the core's text; `tests/it/main.rs` includes this file, so that its
//! `runtime_core` and `tool_keys` tests read the same text.
//!
//! The pieces share one module scope once joined (the core has no import): each may call what
//! another declares. The first holds the header comment, so it stays at the top of the shipped file.

/// The core's text: its pieces joined, each followed by one blank line but the last.
macro_rules! runtime_core {
    ($dir:literal) => {
        concat!(
            include_str!(concat!($dir, "services.mjs")),
            "\n",
            include_str!(concat!($dir, "decide.mjs")),
            "\n",
            include_str!(concat!($dir, "tool.mjs")),
            "\n",
            include_str!(concat!($dir, "route.mjs")),
            "\n",
            include_str!(concat!($dir, "check.mjs")),
            "\n",
            include_str!(concat!($dir, "combine.mjs")),
            "\n",
            include_str!(concat!($dir, "copy.mjs")),
            "\n",
            include_str!(concat!($dir, "sourcemap.mjs")),
        )
    };
}
