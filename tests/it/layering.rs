//! The crate's layers, in order: each may use only the layers before it (and itself). Read from the
//! sources, so that a wrong import fails here with the file that made it.

/// Each top-level module and the layers it may use, lowest first.
const LAYERS: &[(&str, &[&str])] = &[
    ("vocabulary", &[]),
    ("diagnostic", &["vocabulary"]),
    ("hosts", &["vocabulary", "diagnostic"]),
    ("io", &["vocabulary"]),
    ("artifact", &["vocabulary", "hosts", "io"]),
    ("pipeline", &["vocabulary", "diagnostic", "hosts", "io", "artifact"]),
    ("driver", &["vocabulary", "diagnostic", "hosts", "io", "artifact", "pipeline"]),
    ("tools", &["vocabulary", "diagnostic", "hosts", "io", "artifact", "pipeline", "driver"]),
    ("cli", &["vocabulary", "diagnostic", "hosts", "io", "artifact", "pipeline", "driver", "tools"]),
];

fn sources(layer: &str) -> Vec<std::path::PathBuf> {
    let file = std::path::PathBuf::from(format!("src/{layer}.rs"));
    if file.is_file() {
        return vec![file];
    }
    walkdir::WalkDir::new(format!("src/{layer}"))
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect()
}

#[test]
fn every_layer_uses_only_the_layers_below_it() {
    let mut violations = Vec::new();
    for (layer, allowed) in LAYERS {
        let files = sources(layer);
        assert!(!files.is_empty(), "layer {layer} has no sources");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (number, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for (offset, _) in line.match_indices("crate::") {
                    let used: String =
                        line[offset + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    if !used.is_empty() && used != *layer && !allowed.contains(&used.as_str()) {
                        violations.push(format!("{}:{}: {layer} uses crate::{used}", file.display(), number + 1));
                    }
                }
            }
        }
    }
    assert!(violations.is_empty(), "imports against the layering:\n{}", violations.join("\n"));
}

#[test]
fn every_top_level_module_has_a_layer() {
    let lib = std::fs::read_to_string("src/lib.rs").unwrap();
    for line in lib.lines().filter_map(|l| l.strip_prefix("pub mod ")) {
        let module = line.trim_end_matches(';');
        assert!(LAYERS.iter().any(|(layer, _)| *layer == module), "src/lib.rs declares {module}, which has no layer");
    }
}

/// The pipeline's stages in the order they run (`pipeline/mod.rs`, which loads a bundle through the
/// stages up to `plan`, sits between `plan` and `bundle`): each may use only the stages before it.
/// `icon` and `types` are checks that loading runs beside normalising.
const STAGES: &[&str] =
    &["discover", "extract", "config", "icon", "types", "normalise", "plan", "<load>", "bundle", "emit"];

/// The stage a file under `src/pipeline/` belongs to.
fn stage_of(relative: &std::path::Path) -> String {
    let first = relative.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
    match first.strip_suffix(".rs") {
        Some("mod") => "<load>".to_string(),
        Some(stage) => stage.to_string(),
        None => first,
    }
}

/// What a path after `crate::pipeline::` names: a stage, or an item of `pipeline/mod.rs` itself.
fn stage_named(name: &str) -> &str {
    STAGES.iter().find(|stage| **stage == name).copied().unwrap_or("<load>")
}

#[test]
fn every_pipeline_stage_uses_only_the_stages_before_it() {
    let position = |stage: &str| STAGES.iter().position(|s| *s == stage);
    let mut violations = Vec::new();
    for file in sources("pipeline") {
        let relative = file.strip_prefix("src/pipeline").unwrap();
        let stage = stage_of(relative);
        let own = position(&stage).unwrap_or_else(|| panic!("{} is in no stage of STAGES", file.display()));
        let text = std::fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for (offset, _) in line.match_indices("crate::pipeline::") {
                let rest = &line[offset + "crate::pipeline::".len()..];
                let names: Vec<&str> = match rest.strip_prefix('{') {
                    Some(group) => group.split('}').next().unwrap().split(',').map(str::trim).collect(),
                    None => vec![rest],
                };
                for name in names {
                    let name: String = name.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    if name.is_empty() {
                        continue;
                    }
                    let used = stage_named(&name);
                    if position(used).unwrap() > own {
                        violations.push(format!(
                            "{}:{}: {stage} uses {used} (crate::pipeline::{name}), a later stage",
                            file.display(),
                            number + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(violations.is_empty(), "imports against the stage order:\n{}", violations.join("\n"));
}

/// A module's path below the crate (`src/a/b.rs` and `src/a/b/mod.rs` are `a::b`).
fn module_of(file: &std::path::Path) -> Vec<String> {
    let relative = file.strip_prefix("src").unwrap().with_extension("");
    let mut path: Vec<String> = relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if path.last().is_some_and(|last| last == "mod" || last == "lib") {
        path.pop();
    }
    path
}

/// The paths a source names after `crate::` and `super::` (groups `{a, b::c}` spread), resolved
/// against `module`: each as the module path it starts with.
fn named_paths(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let code: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let mut found = Vec::new();
    for start in ["crate::", "super::"] {
        for (offset, _) in code.match_indices(start) {
            if offset > 0 && code[..offset].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue; // `super::super::` is read from its first `super`
            }
            let mut base: Vec<String> = if start == "crate::" {
                Vec::new()
            } else {
                // A file `a/b/c.rs` is module `a::b::c`, whose `super` is `a::b`; `a/b/mod.rs` is `a::b`.
                let mut parent = module.to_vec();
                parent.pop();
                parent
            };
            let mut rest = &code[offset + start.len()..];
            while let Some(after) = rest.strip_prefix("super::") {
                base.pop();
                rest = after;
            }
            let items: Vec<String> = match rest.strip_prefix('{') {
                Some(group) => {
                    let (mut depth, mut end) = (1, group.len());
                    for (i, c) in group.char_indices() {
                        depth += match c {
                            '{' => 1,
                            '}' => -1,
                            _ => 0,
                        };
                        if depth == 0 {
                            end = i;
                            break;
                        }
                    }
                    group[..end].split(',').map(|s| s.trim().trim_start_matches('{').to_string()).collect()
                }
                None => vec![rest.to_string()],
            };
            for item in items {
                let mut path = base.clone();
                for segment in item.split("::") {
                    let name: String = segment.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    if name.is_empty() || name == "self" {
                        break;
                    }
                    path.push(name);
                    if segment.len() != path.last().unwrap().len() {
                        break;
                    }
                }
                found.push(path);
            }
        }
    }
    found
}

/// No two modules of one folder use each other, directly or around a ring: each folder's modules
/// (and the folders within it, taken whole) can be read in one order, each using only those before
/// it. A module's use of its parent's items, and a parent's of its children, are not rings.
#[test]
fn no_modules_of_a_folder_use_each_other_in_a_circle() {
    use std::collections::{BTreeMap, BTreeSet};
    let files: Vec<std::path::PathBuf> = walkdir::WalkDir::new("src")
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    // parent module -> (child -> children it uses)
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in &files {
        let from = module_of(file);
        for mut to in named_paths(&std::fs::read_to_string(file).unwrap(), &from) {
            while !to.is_empty() && !modules.contains(&to) {
                to.pop();
            }
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common < from.len() && common < to.len() {
                graphs
                    .entry(from[..common].to_vec())
                    .or_default()
                    .entry(from[common].clone())
                    .or_default()
                    .insert(to[common].clone());
            }
        }
    }
    let mut circles = Vec::new();
    for (parent, graph) in &graphs {
        // Depth-first, reporting the first ring through each node.
        fn ring(
            graph: &BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<String>,
            seen: &mut BTreeSet<String>,
        ) -> Option<Vec<String>> {
            let node = path.last().unwrap().clone();
            for next in graph.get(&node).into_iter().flatten() {
                if let Some(at) = path.iter().position(|p| p == next) {
                    let mut found = path[at..].to_vec();
                    found.push(next.clone());
                    return Some(found);
                }
                if seen.insert(next.clone()) {
                    path.push(next.clone());
                    if let Some(found) = ring(graph, path, seen) {
                        return Some(found);
                    }
                    path.pop();
                }
            }
            None
        }
        let mut seen = BTreeSet::new();
        for start in graph.keys() {
            if seen.insert(start.clone())
                && let Some(found) = ring(graph, &mut vec![start.clone()], &mut seen)
            {
                circles.push(format!("in crate::{}: {}", parent.join("::"), found.join(" -> ")));
            }
        }
    }
    assert!(circles.is_empty(), "modules that use each other:\n{}", circles.join("\n"));
}
