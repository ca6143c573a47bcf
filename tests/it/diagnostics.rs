//! Every diagnostic code has a fixture bundle under `testdata/diagnostics/<CODE>-<what>/` holding a
//! deliberate mistake; its rendered diagnostics (code, position, message, hint) are snapshots.

use std::collections::BTreeSet;

use agent_bundle::diagnostic::{Code, render_human, render_json};
use agent_bundle::driver::{BuildOptions, build};
use agent_bundle::io::RealDisk;
use agent_bundle::pipeline::Loaded;
use camino::Utf8PathBuf;

const FIXTURES: &str = "testdata/diagnostics";

/// Codes whose situation cannot live in a fixture folder; each is covered by the named test.
const COVERED_ELSEWHERE: &[(Code, &str)] = &[
    (Code::RootNotFound, "tests/it/cli.rs: missing_root_is_reported"),
    (
        Code::TooManyHooks,
        "tests/it/hostile_input.rs: twenty_thousand_hooks_are_refused_at_once_naming_the_first_past_the_limit",
    ),
    (Code::InternalError, "tests/it/hostile_input.rs: build_recursive_survives_one_bundles_failure_of_any_kind"),
    (Code::PayloadOverlapsOutput, "tests/it/build.rs: a_payload_overlapping_the_output_is_refused"),
    (Code::OutputNotAnArtifact, "tests/it/build.rs: a_folder_agent_bundle_did_not_write_is_never_replaced"),
    (Code::ArtifactWriteFailed, "tests/it/build.rs: an_unwritable_output_is_reported"),
    (
        Code::UntrackedArtifactFiles,
        "tests/it/incremental.rs: files_put_into_the_artifact_by_hand_are_kept_and_reported_and_old_outputs_still_go",
    ),
    (
        Code::UntrackedFileInTheWay,
        "tests/it/incremental.rs: a_hand_put_file_in_the_way_of_the_build_is_refused_and_nothing_is_written",
    ),
    (
        Code::MarketplaceDeclarationInvalid,
        "tests/it/marketplace.rs: a_declaration_that_is_not_one_is_named_with_its_line_and_the_key",
    ),
    (Code::MarketplacePluginUnlistable, "tests/it/marketplace.rs: two_plugins_of_one_name_cannot_share_a_catalog"),
    (
        Code::CatalogNotOurs,
        "tests/it/marketplace.rs: a_catalog_someone_else_wrote_is_never_replaced_and_then_no_catalog_is_written",
    ),
    (Code::CatalogWriteFailed, "tests/it/marketplace.rs: a_catalog_that_cannot_be_written_is_an_error_naming_it"),
    (
        Code::InstallArtifactInvalid,
        "tests/it/install.rs: what_is_not_a_built_artifact_or_cannot_be_written_is_refused_naming_it",
    ),
    (
        Code::InstallHostUnavailable,
        "tests/it/install.rs: a_host_that_cannot_be_installed_for_is_refused_with_the_reason",
    ),
    (Code::InstallPathNotOwned, "tests/it/install.rs: install_never_overwrites_what_it_does_not_own"),
    (
        Code::HostCommandFailed,
        "tests/it/install.rs: a_host_command_that_fails_leaves_nothing_installed_and_undoes_what_ran",
    ),
    (
        Code::InstallWriteFailed,
        "tests/it/install.rs: what_is_not_a_built_artifact_or_cannot_be_written_is_refused_naming_it",
    ),
    (
        Code::ReceiptMissing,
        "tests/it/install.rs: uninstall_removes_exactly_what_the_receipt_owns_whatever_was_added_around_it",
    ),
    (Code::ReceiptInvalid, "tests/it/install.rs: doctor_says_when_an_install_is_stale_or_its_files_changed"),
    // Normalising refuses every payload name that could collide (AB4741), so only a bundle slipped past it reaches this.
    (Code::ArtifactPathCollision, "src/pipeline/emit/mod.rs: emit_refuses_a_payload_on_any_name_of_the_layout"),
];

/// Builds a fixture into a temporary folder (nothing is ever written into `testdata/`) and returns
/// what loading and building reported.
fn build_fixture(dir: &Utf8PathBuf) -> Loaded {
    let temp = tempfile::tempdir().unwrap();
    let output = Utf8PathBuf::from_path_buf(temp.path().join("artifact")).unwrap();
    let cache_dir = Some(Utf8PathBuf::from_path_buf(temp.path().join("cache")).unwrap());
    let options = BuildOptions { root: dir.clone(), output: Some(output), cache_dir, ..Default::default() };
    build(&options, &RealDisk).unwrap().loaded
}

fn fixture_dirs() -> Vec<Utf8PathBuf> {
    let mut dirs: Vec<Utf8PathBuf> = std::fs::read_dir(FIXTURES)
        .expect("fixtures exist")
        .map(|entry| Utf8PathBuf::from_path_buf(entry.unwrap().path()).unwrap())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn every_fixture_reports_its_code_and_matches_its_snapshot() {
    for dir in fixture_dirs() {
        let name = dir.file_name().unwrap().to_string();
        let expected_code = &name[..6];
        let mut loaded = build_fixture(&dir);
        // Fixtures give no plugin details and no tsconfig, so every one would also warn AB1025 and
        // (importing `agent-bundle/config`) AB1030; only their own fixtures show them.
        for incidental in [Code::IncompletePluginMetadata, Code::TypesNotVisible] {
            if expected_code != incidental.as_str() {
                loaded.diagnostics.retain(|d| d.code != incidental);
            }
        }
        let codes: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert!(codes.contains(&expected_code), "{name}: expected {expected_code}, got {codes:?}");

        let sources: Vec<_> = loaded.sources.iter().collect();
        let human: String = loaded.diagnostics.iter().map(|d| render_human(d, &sources) + "\n").collect();
        let json: String = loaded.diagnostics.iter().map(|d| render_json(d) + "\n").collect();
        insta::with_settings!({ snapshot_suffix => name.clone(), prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!("human", human);
            insta::assert_snapshot!("json", json);
        });
    }
}

#[test]
fn every_code_in_the_catalogue_is_reported_by_a_fixture() {
    let with_fixture: BTreeSet<String> = fixture_dirs()
        .iter()
        .flat_map(|dir| build_fixture(dir).diagnostics.into_iter().map(|d| d.code.as_str().to_string()))
        .collect();
    let elsewhere: BTreeSet<&str> = COVERED_ELSEWHERE.iter().map(|(code, _)| code.as_str()).collect();
    let missing: Vec<&str> = Code::ALL
        .iter()
        .map(|code| code.as_str())
        .filter(|code| !with_fixture.contains(*code) && !elsewhere.contains(code))
        .collect();
    assert!(missing.is_empty(), "codes without a fixture in {FIXTURES}: {missing:?}");
}

#[test]
fn several_errors_in_one_file_are_all_reported_in_source_order() {
    let loaded = agent_bundle::load(&Utf8PathBuf::from(FIXTURES).join("AB4205-invalid-timeout"), &RealDisk);
    let lines: Vec<u32> =
        loaded.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.primary_location().unwrap().line).collect();
    assert_eq!(lines, [4, 5, 6, 7, 9]);
}

#[test]
fn the_readme_documents_every_code() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    for code in Code::ALL {
        let row = format!("| `{}` | {} | {} |", code.as_str(), code.severity().as_str(), code.summary());
        assert!(readme.contains(&row), "README.md lacks the row: {row}");
    }
}
