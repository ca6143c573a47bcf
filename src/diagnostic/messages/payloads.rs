//! Payloads and prebuilt handlers: as declared, and as the build finds them.

use super::list;
use crate::diagnostic::{Code, Diagnostic};
use crate::vocabulary::source::Location;
use crate::vocabulary::target::Target;

/// A payload name the plugin layout gives someone else. `taken`: who writes what there, each as
/// (writer, what it is, artifact path), e.g. (`Gemini CLI`, `plugin folder`, `gemini/`); `host_folders`:
/// the hosts' own folders, which payloads are copied into too.
pub fn reserved_payload_name(
    name: &str,
    taken: &[(String, &str, String)],
    host_folders: &[&str],
    at: &Location,
) -> Diagnostic {
    let mut writers: Vec<&str> = taken.iter().map(|(writer, _, _)| writer.as_str()).collect();
    writers.dedup();
    // One phrase per writer and role, with every path it has under that name.
    let mut groups: Vec<(&str, &str, Vec<&str>)> = Vec::new();
    for (writer, role, path) in taken {
        match groups.iter_mut().find(|(w, r, _)| *w == writer.as_str() && r == role) {
            Some((_, _, paths)) => paths.push(path),
            None => groups.push((writer, role, vec![path])),
        }
    }
    let what: Vec<String> =
        groups.iter().map(|(writer, role, paths)| format!("{writer}'s {role} ({})", list(paths))).collect();
    let folders = if host_folders.is_empty() {
        String::new()
    } else {
        format!(" and inside {}", list(host_folders.iter().map(|f| format!("{f}/"))))
    };
    Diagnostic::new(Code::ReservedPayloadName, format!("payload name `{name}` is taken by {}", what.join(" and ")))
        .at(Some(at), format!("taken by {}", writers.join(" and ")))
        .note(format!("a payload is copied to the folder its name gives, at the plugin's root{folders}"))
        .hint(format!("rename the payload (`{name}-files`), or put `{name}` inside a payload folder of another name"))
}

/// A payload name that is not one plain folder name.
pub fn invalid_payload_name(name: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::ReservedPayloadName, format!("payload name `{name}` is not a plain folder name"))
        .at(Some(at), "not one folder name")
        .hint("a payload's name is the one folder it is copied to: no `/` or `\\`, and not empty, `.` or `..`")
}

pub fn payload_source_missing(source: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::PayloadSourceMissing, format!("payload source `{source}` does not exist yet"))
        .at(Some(at), "no folder here")
        .hint("run your own build that produces it before `cargo agent-bundle build`")
}

pub fn payload_outside_root(source: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::PayloadSourceOutsideRoot, format!("payload source `{source}` lies outside the bundle root"))
        .at(Some(at), "outside the bundle")
        .hint("keep payload folders inside the bundle folder")
}

/// `payload_sources`: the declared payloads' source folders.
pub fn prebuilt_outside_payload(written: &str, payload_sources: &[&str], at: &Location) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        Code::PrebuiltOutsidePayload,
        format!("prebuilt handler `{written}` is not inside any declared payload"),
    )
    .at(Some(at), "not shipped by any payload");
    if payload_sources.is_empty() {
        diagnostic.hint("declare the folder that holds it: `payload: { runtime: { source: './dist/runtime' } }`")
    } else {
        diagnostic.hint(format!(
            "declared payload sources are {}; move the file into one or declare its folder",
            list(payload_sources.iter())
        ))
    }
}

pub fn prebuilt_not_built(written: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::PrebuiltNotBuilt, format!("prebuilt handler `{written}` does not exist yet"))
        .at(Some(at), "not built yet")
        .hint("run your own build before `cargo agent-bundle build`; `build` fails if it is still missing")
}

pub fn payload_lacks_target(payload: &str, target: Target, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::PayloadLacksTarget,
        format!("the hook runs on `{target}`, but payload `{payload}` is not shipped to `{target}`"),
    )
    .at(Some(at), "the file would be missing on this host")
    .hint(format!("add `{target}` to payload `{payload}`'s targets, or narrow the hook's targets"))
}

pub fn payload_missing_at_build(name: &str, source: &str) -> Diagnostic {
    Diagnostic::new(Code::PayloadMissingAtBuild, format!("payload `{name}`: source folder `{source}` does not exist"))
        .hint("run the build that produces it first, or remove the payload")
}

/// `link`: the link's root-relative path; `target`: its target as written.
pub fn payload_link_broken(name: &str, link: &str, target: &str) -> Diagnostic {
    Diagnostic::new(
        Code::PayloadMissingAtBuild,
        format!("payload `{name}`: `{link}` is a symlink to `{target}`, which does not exist or holds the link itself"),
    )
    .hint("remove the link, or run the build that produces what it names first")
}

/// `source`: the payload's root-relative folder; `link`: the link's root-relative path; `target`: its
/// target as written.
pub fn payload_link_outside(name: &str, source: &str, link: &str, target: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(
        Code::PayloadLinkOutside,
        format!("payload `{name}`: `{link}` is a symlink to `{target}`, outside the bundle root and its node_modules"),
    )
    .at(Some(at), "this payload")
    .note("a plugin ships only what is inside its bundle; nothing the link names was read")
    .hint(format!(
        "copy what the payload needs into it, or declare it as `{name}: {{ source: './{source}', keepOutsideLinks: true }}` to ship the link itself (it then names `{target}` on the machine that runs the plugin)"
    ))
}

pub fn prebuilt_missing_at_build(written: &str, at: &Location) -> Diagnostic {
    Diagnostic::new(Code::PrebuiltMissingAtBuild, format!("prebuilt handler `{written}` does not exist"))
        .at(Some(at), "nothing to ship")
        .hint("run your own build that produces it before `cargo agent-bundle build`")
}

pub fn payload_overlaps_output(name: &str, source: &str, output: &str) -> Diagnostic {
    Diagnostic::new(
        Code::PayloadOverlapsOutput,
        format!("payload `{name}` (`{source}`) and the output folder `{output}` overlap"),
    )
    .hint("build into a folder outside every payload, with `--output <dir>`")
}
