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
