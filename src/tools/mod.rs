//! What works on a bundle or a built artifact, beside building it: `inspect` (a bundle's plan),
//! `hooks simulate` (an artifact's wrapper run as the host would), `snapshot` (golden renderings of
//! what hosts read) and the Event and hook matrix (the host tables as a table).

pub mod init;
pub mod inputs;
pub(crate) mod inspect;
pub mod install;
pub mod matrix;
pub mod monorepo;
pub mod simulate;
pub(crate) mod snapshot;
pub mod types;
pub mod windows;
pub mod workbench;
