//! Each file in `testdata/extract/accepted/` is one syntax form D2 in docs/decisions.md accepts; each must
//! extract without a diagnostic, and its value is a snapshot.

use agent_bundle::pipeline::extract::{extract_default_export, extract_named_export};
use agent_bundle::vocabulary::source::SourceFile;

#[test]
fn accepted_forms_extract_without_diagnostics() {
    insta::glob!("../../testdata/extract/accepted", "*.*", |path| {
        let name = path.file_name().unwrap().to_str().unwrap();
        let file = SourceFile::new(name, std::fs::read_to_string(path).unwrap());
        // Event routes export `config`; everything else default-exports the bundle config.
        let extracted =
            if name.ends_with(".tsx") { extract_named_export(&file, "config") } else { extract_default_export(&file) };
        assert!(extracted.diagnostics.is_empty(), "{name}: {:#?}", extracted.diagnostics);
        let value = extracted.value.unwrap_or_else(|| panic!("{name}: no value"));
        insta::assert_snapshot!(agent_bundle::vocabulary::json::pretty(&value.to_json()));
    });
}

#[test]
fn a_module_without_the_named_export_has_no_value_and_no_error() {
    let file = SourceFile::new("route.ts", "export default () => null;\n".to_string());
    let extracted = extract_named_export(&file, "config");
    assert!(extracted.value.is_none());
    assert!(extracted.diagnostics.is_empty());
}

#[test]
fn numbers_keep_their_javascript_value() {
    let file = SourceFile::new("c.ts", "export default { a: 1_000, b: -0.5, c: 0b101, d: 1e3 };\n".to_string());
    let value = extract_default_export(&file).value.unwrap().to_json();
    assert_eq!(value, serde_json::json!({ "a": 1000, "b": -0.5, "c": 5, "d": 1000 }));
}

/// Truncated and corrupted configs never panic the reader: each cut is either readable or reported.
#[test]
fn every_truncation_of_every_accepted_form_is_read_or_reported() {
    use agent_bundle::pipeline::config::read_config;
    for entry in std::fs::read_dir("testdata/extract/accepted").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let cuts = text.char_indices().map(|(i, _)| i).step_by(3);
        for cut in cuts {
            for variant in [text[..cut].to_string(), format!("{}}}{}", &text[..cut], &text[cut..])] {
                let file = SourceFile::new(name.as_str(), variant);
                let extracted = extract_default_export(&file);
                match extracted.value {
                    Some(value) => {
                        let _ = read_config(&file, &value);
                    }
                    None => {
                        assert!(!extracted.diagnostics.is_empty(), "{name} cut at {cut}: no value and no diagnostic")
                    }
                }
            }
        }
    }
}
