//! The typed error every command returns, and the documented exit codes it maps to.

/// Exit codes, documented in README.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum ExitCode {
    /// The command did what was asked (warnings may have been printed).
    Success = 0,
    /// The command ran and reported at least one error diagnostic.
    Failure = 1,
    /// The command line itself was wrong (unknown flag, missing value, bad combination).
    Usage = 2,
    /// `build --check`: the sources build, and the artifact differs from what they build.
    Drift = 3,
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Diagnostics were printed and at least one was an error.
    #[error("{errors} error{} reported", if *errors == 1 { "" } else { "s" })]
    Reported { errors: usize },
    /// The arguments make no sense together; the message says why.
    #[error("{0}")]
    Usage(String),
    /// The command could not do its job; the message says why and what to do.
    #[error("{0}")]
    Failed(String),
    /// `build --check` found an artifact that differs from what its sources build.
    #[error("{0}")]
    Drift(String),
    /// Writing the command's output failed (a closed pipe, a full disk).
    #[error("cannot write output: {0}")]
    Output(#[from] std::io::Error),
}

impl Error {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Error::Reported { .. } | Error::Failed(_) | Error::Output(_) => ExitCode::Failure,
            Error::Usage(_) => ExitCode::Usage,
            Error::Drift(_) => ExitCode::Drift,
        }
    }
}
