//! Writing the artifact: its paths, files in its way, the write itself.

use camino::Utf8Path;

use super::list;
use crate::diagnostic::{Code, Diagnostic, Obstruction};

pub fn internal_error(root: &Utf8Path, what: &str) -> Diagnostic {
    Diagnostic::new(Code::InternalError, format!("agent-bundle failed while building `{root}`: {what}"))
        .note("nothing was written for this bundle; the previous artifact is as it was, and other bundles were built")
        .hint("this is a bug in agent-bundle: please report it with the bundle that causes it")
}

pub fn output_not_an_artifact(output: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::OutputNotAnArtifact, format!("`{output}` exists and holds files agent-bundle did not write"))
        .note("a build replaces its output folder whole; agent-bundle only replaces folders that hold its own `agent-bundle.manifest.json`")
        .hint("choose an empty or new folder with `--output <dir>`, or remove this one")
}

/// Two producers of one artifact path (`first` wrote it first), each as a message names it
/// (`Claude Code's hook document`, ``payload `hooks` ``).
pub fn artifact_path_collision(path: &str, first: &str, second: &str) -> Diagnostic {
    Diagnostic::new(Code::ArtifactPathCollision, format!("{first} and {second} both write `{path}`"))
        .note("a build never lets one part of the plugin overwrite or merge into another's files")
        .hint(collision_hint(&[first, second]))
}

/// A file at `file` where another producer needs a folder for `inner`.
pub fn artifact_path_blocked(file: &str, file_producer: &str, inner: &str, inner_producer: &str) -> Diagnostic {
    Diagnostic::new(
        Code::ArtifactPathCollision,
        format!("{file_producer} writes the file `{file}`, where {inner_producer} needs a folder for `{inner}`"),
    )
    .note("a build never lets one part of the plugin overwrite or merge into another's files")
    .hint(collision_hint(&[file_producer, inner_producer]))
}

fn collision_hint(producers: &[&str]) -> String {
    if producers.iter().any(|p| p.starts_with("payload ")) {
        "rename the payload, or put its files under another folder: a payload's name is the folder it is copied to"
            .into()
    } else {
        "the host tables give two parts of the plugin one path; report it to agent-bundle".into()
    }
}

/// How many untracked files a warning names before it counts the rest.
const UNTRACKED_SHOWN: usize = 10;

/// Files (and empty folders, ending in `/`) in the output that no build wrote, kept.
pub fn untracked_artifact_files(output: &Utf8Path, paths: &[String]) -> Diagnostic {
    let shown = list(paths.iter().take(UNTRACKED_SHOWN));
    let more = match paths.len().saturating_sub(UNTRACKED_SHOWN) {
        0 => String::new(),
        more => format!(" and {more} more (`build --explain` lists them)"),
    };
    let (count, them) =
        if paths.len() == 1 { ("1 file".to_string(), "it") } else { (format!("{} files", paths.len()), "them") };
    Diagnostic::new(
        Code::UntrackedArtifactFiles,
        format!("`{output}` holds {count} no build wrote; the build kept {them}: {shown}{more}"),
    )
    .note("a build removes only what the previous build wrote (its `agent-bundle.manifest.json` lists it); the new manifest does not list these either")
    .hint("to ship a file with the plugin, keep it in the bundle and declare its folder as a payload (`payload: { docs: './docs' }`); otherwise delete it from the artifact")
}

/// Something no build wrote at `path` (artifact-relative) stands where the build writes.
pub fn untracked_in_the_way(output: &Utf8Path, path: &str, how: Obstruction<'_>) -> Diagnostic {
    let why = match how {
        Obstruction::Replaced => format!("the build writes `{path}` itself"),
        Obstruction::NeedsFolder { inner } => format!("the build needs a folder there for `{inner}`"),
        Obstruction::InsideFile { file } => format!("the build writes the file `{file}`, where this is a folder"),
    };
    Diagnostic::new(
        Code::UntrackedFileInTheWay,
        format!("`{output}/{path}` was not written by agent-bundle, and {why}"),
    )
    .note("nothing was written: a build never overwrites or deletes what its previous build did not write")
    .hint(format!("move `{path}` out of the artifact (to ship it with the plugin, declare its folder as a payload), then build again"))
}

pub fn artifact_write_failed(output: &Utf8Path, error: &std::io::Error) -> Diagnostic {
    Diagnostic::new(Code::ArtifactWriteFailed, format!("cannot write the artifact to `{output}`: {error}"))
        .note("the previous artifact, if any, is left as it was")
        .hint("check that the folder's parent exists and is writable")
}
