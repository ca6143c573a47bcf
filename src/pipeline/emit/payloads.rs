//! Files copied from the bundle as they are: payloads (D14: from inside the bundle root and its
//! node_modules only, modes exactly, each to its name and to the folder of each of its hosts that has
//! one) and the plugin's README, license file and icon.

use std::collections::BTreeMap;

use camino::Utf8Path;

use super::assembly::{Assembly, Producer};
use crate::artifact::ArtifactFile;
use crate::diagnostic::{Diagnostic, messages};
use crate::hosts::layout;
use crate::io::stamp::{InputSet, Recorded};
use crate::io::tree::Decision;
use crate::io::{Disk, lexical_join};
use crate::pipeline::Bundle;
use crate::pipeline::bundle::display_path;
use crate::pipeline::normalise::Payload;
use crate::vocabulary::target::Target;

/// One payload's files at each of its destinations.
pub(super) struct PayloadCopy {
    name: String,
    destinations: Vec<String>,
    files: BTreeMap<String, ArtifactFile>,
}

/// The payloads that ship to one of `hosts`, judged (their source is a folder, apart from the
/// output) and read. A link leading outside is refused (AB4752), or kept as a link when the payload
/// says `keepOutsideLinks`.
pub(super) fn read(
    bundle: &Bundle,
    hosts: &[Target],
    root: &Utf8Path,
    output: &Utf8Path,
    disk: &dyn Disk,
    inputs: &mut InputSet,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<PayloadCopy> {
    let mut copies = Vec::new();
    let within = crate::io::tree::confinement(root, disk);
    for payload in bundle.normalised.payloads.iter().filter(|p| p.targets.iter().any(|t| hosts.contains(t))) {
        let source = lexical_join(root, &payload.source);
        let present = disk.is_dir(&source);
        if !present {
            diagnostics.push(messages::payload_missing_at_build(&payload.name, &payload.source));
        }
        let overlaps = source.starts_with(output) || output.starts_with(&source);
        if overlaps {
            diagnostics.push(messages::payload_overlaps_output(&payload.name, &payload.source, output.as_str()));
        }
        if present && !overlaps {
            copies.extend(copy(payload, hosts, root, &within, disk, inputs, diagnostics));
        }
    }
    copies
}

fn copy(
    payload: &Payload,
    hosts: &[Target],
    root: &Utf8Path,
    within: &[camino::Utf8PathBuf],
    disk: &dyn Disk,
    read: &mut InputSet,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<PayloadCopy> {
    // Hosts with a folder of their own find the payload there (their commands are relative to it).
    let mut destinations: Vec<String> = vec![payload.name.clone()];
    for target in payload.targets.iter().filter(|t| hosts.contains(t)) {
        if let Some(folder) = layout::layout().host(*target).and_then(|paths| paths.folder) {
            let destination = format!("{folder}/{}", payload.name);
            if !destinations.contains(&destination) {
                destinations.push(destination);
            }
        }
    }
    let source = lexical_join(root, &payload.source);
    let walked = match disk.walk_tree(&source, within, &|_, _| Decision::Ship) {
        Ok(walked) => walked,
        Err(error) => {
            let detail = format!("{} ({error})", payload.source);
            diagnostics.push(messages::payload_missing_at_build(&payload.name, &detail));
            return None;
        }
    };
    let mut files = BTreeMap::new();
    for file in &walked.files {
        let (recorded, content) = disk.read_recorded_with_mode(&file.real);
        let Some((bytes, mode)) = content else {
            let detail = format!("{}/{} (it cannot be read)", payload.source, file.path);
            diagnostics.push(messages::payload_missing_at_build(&payload.name, &detail));
            continue;
        };
        for destination in &destinations {
            files.insert(format!("{destination}/{}", file.path), ArtifactFile::with_mode(bytes.clone(), mode));
        }
        read.files.insert(file.real.to_string(), recorded);
    }
    for link in &walked.outside {
        let shown = display_path(root, &link.at);
        if payload.keep_outside_links {
            for destination in &destinations {
                files.insert(format!("{destination}/{}", link.path), ArtifactFile::symlink(&link.target));
            }
            read.files.insert(link.at.to_string(), disk.record_link(&link.at));
        } else {
            diagnostics.push(messages::payload_link_outside(
                &payload.name,
                &payload.source,
                shown.as_str(),
                &link.target,
                &payload.declared_at,
            ));
        }
    }
    for link in &walked.broken {
        let shown = display_path(root, &link.at);
        diagnostics.push(messages::payload_link_broken(&payload.name, shown.as_str(), &link.target));
    }
    for folder in &walked.dirs {
        read.dirs.insert(folder.to_string(), disk.record_dir(folder));
    }
    Some(PayloadCopy { name: payload.name.clone(), destinations, files })
}

/// Places the payloads read, each folder checked against the layout first.
pub(super) fn place(files: &mut Assembly, copies: Vec<PayloadCopy>) {
    for copy in copies {
        for destination in &copy.destinations {
            files.check_payload_folder(destination, &copy.name);
        }
        let producer = Producer::Payload { name: copy.name.clone() };
        for (path, file) in copy.files {
            files.add(path, file, producer.clone());
        }
    }
}

/// Places the plugin's README, license file and icon: what a plugin directory shows next to the
/// hooks. The icon goes where each of `hosts` looks for it.
pub(super) fn place_plugin_files(
    files: &mut Assembly,
    bundle: &Bundle,
    hosts: &[Target],
    root: &Utf8Path,
    disk: &dyn Disk,
    read: &mut InputSet,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let icon_paths: Vec<&str> = hosts.iter().filter_map(|t| layout::layout().host(*t)?.icon).collect();
    let interface_assets = hosts.iter().any(|t| {
        let surface = crate::hosts::table(*t).hooks.as_ref();
        surface.is_some_and(|s| s.manifest_interface.values().any(|kind| kind.starts_with("asset")))
    });
    for (source, destination) in bundle.plugin.files.placed(&icon_paths, interface_assets) {
        let absolute = root.join(source);
        let (recorded, bytes): (Recorded, _) = disk.read_recorded(&absolute);
        match bytes {
            Some(bytes) => {
                let producer = Producer::PluginFile { source: source.to_string() };
                files.add(destination.to_string(), ArtifactFile::new(bytes), producer);
                read.files.insert(absolute.to_string(), recorded);
            }
            None => diagnostics.push(messages::payload_missing_at_build("plugin", source)),
        }
    }
}
