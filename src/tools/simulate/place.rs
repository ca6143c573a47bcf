//! The host's place for a hook's process (issue 47, item 1): the folder it starts in and the
//! variables the host sets there, from the host table's `hookProcess` (recorded in the real
//! programs), with the project folder taken from `--project`, the envelope or the current folder,
//! and a file the host reads back (`CLAUDE_ENV_FILE`) captured after the run.

use std::collections::BTreeMap;

use camino::{Utf8Path, Utf8PathBuf};
use serde::Serialize;
use serde_json::Value;

use super::SimulateError;
use crate::artifact::IndexRow;
use crate::hosts::{self, HookFolder, HookValue};

/// Where the project folder of a run comes from.
#[derive(Clone, Debug)]
pub enum Project {
    /// Given (`--project`).
    Given(Utf8PathBuf),
    /// The envelope's project (its `cwd`, Cursor's `workspace_roots[0]`, …) when that folder exists
    /// here, else the current folder.
    FromInput,
    /// A fresh empty folder of its own (a recorded run: snapshots, the Workbench's replays).
    Fresh,
    /// Chosen already (a canonical input's run, whose project fields name it), with where from.
    Chosen(Utf8PathBuf, String),
}

/// The project folder of a run that is not a recorded one, where it came from, and a note when the
/// input named a folder that is not one here.
pub(super) fn chosen_project(
    project: &Project,
    named: Option<String>,
) -> Result<(Utf8PathBuf, String, Option<String>), SimulateError> {
    if let Project::Chosen(dir, from) = project {
        return Ok((dir.clone(), from.clone(), None));
    }
    if let Project::Given(dir) = project {
        let dir = dir.canonicalize_utf8().map_err(|e| {
            SimulateError::BadInput(format!("--project `{dir}`: {e}; give the folder the host's session runs in"))
        })?;
        return Ok((dir, "--project".to_string(), None));
    }
    if let Some(dir) = named.as_deref().map(Utf8Path::new).filter(|dir| dir.is_dir()) {
        return Ok((dir.to_path_buf(), "the input".to_string(), None));
    }
    let here = std::env::current_dir()
        .ok()
        .and_then(|d| Utf8PathBuf::from_path_buf(d).ok())
        .ok_or_else(|| SimulateError::Isolation("the current folder is not a UTF-8 path".into()))?;
    let warning = named.map(|named| {
        format!(
            "the input's project `{named}` is not a folder here, so the hook runs in the current folder ({here}); give --project to choose"
        )
    });
    Ok((here, "the current folder".to_string(), warning))
}

/// The canonical fields of the input that name the project on `row`'s host and event (`cwd`,
/// Cursor's `workspaceRoots`), each with whether it is a list, in the host's order.
pub(super) fn project_fields(row: &IndexRow) -> Vec<(String, bool)> {
    let table = hosts::table(row.host);
    let (Some(surface), Ok(mapping)) = (&table.hooks, table.mapping_for(row.event, row.hooks_module)) else {
        return Vec::new();
    };
    surface
        .places
        .project_keys
        .iter()
        .filter_map(|key| {
            let field = surface.input_fields(mapping).find(|f| &f.key == key)?;
            Some((field.canonical.clone()?, field.kind == hosts::FieldKind::StringArray))
        })
        .collect()
}

/// How a run is placed: its project, and variables added or overridden (`--env K=V`).
#[derive(Clone, Debug)]
pub struct PlaceRequest {
    pub project: Project,
    pub env: Vec<(String, String)>,
    /// Where the place makes its folders (the data folder, a fresh project, the env file): a
    /// recorded run's own folder; `None`: a temporary folder removed after the run.
    pub folder: Option<Utf8PathBuf>,
}

impl Default for PlaceRequest {
    fn default() -> Self {
        PlaceRequest { project: Project::FromInput, env: Vec::new(), folder: None }
    }
}

/// The place as a run shows it: what the hook's process got.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShownPlace {
    /// The folder the process started in.
    pub working_folder: String,
    /// The session's project folder, and where it came from.
    pub project: String,
    pub project_from: String,
    /// Every variable set beyond the caller's own environment: the host's, then `--env`.
    pub env: BTreeMap<String, String>,
    /// The file the host reads back after the hook, with what the hook wrote there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env_file: Option<WrittenEnvFile>,
}

impl ShownPlace {
    /// Every path of the place with `from` shown as `to` (the run's copy as the artifact, a recorded
    /// run's folder as `[RUN]`).
    pub(super) fn show_path_as(&mut self, from: &str, to: &str) {
        let shown = |text: &mut String| *text = text.replace(from, to);
        shown(&mut self.working_folder);
        shown(&mut self.project);
        self.env.values_mut().for_each(shown);
        if let Some(file) = &mut self.env_file {
            shown(&mut file.path);
            shown(&mut file.written);
        }
    }
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WrittenEnvFile {
    pub variable: String,
    pub path: String,
    /// What the hook wrote there (empty: nothing).
    pub written: String,
    /// What the host does with it.
    pub read_back: String,
}

/// A run's place, with the folders it made (the data folder, the project of a recorded run, the
/// env file), removed when dropped.
pub(super) struct Place {
    _temp: Option<tempfile::TempDir>,
    pub(super) cwd: Utf8PathBuf,
    pub(super) env: Vec<(String, String)>,
    pub(super) shown: ShownPlace,
    /// Notes on how the place was chosen (a project that does not exist here).
    pub(super) warnings: Vec<String>,
}

impl Place {
    /// The place the host would give the hook of `row` (its plugin folder at `plugin_root` in the
    /// run's copy) on `envelope`.
    pub(super) fn new(
        row: &IndexRow,
        plugin_root: &Utf8Path,
        envelope: &Value,
        request: &PlaceRequest,
    ) -> Result<Place, SimulateError> {
        let failed = |e: &dyn std::fmt::Display| SimulateError::Isolation(e.to_string());
        let (temp, base) = match &request.folder {
            Some(folder) => {
                fs_err::create_dir_all(folder).map_err(|e| failed(&e))?;
                (None, folder.clone())
            }
            None => {
                let temp = tempfile::Builder::new().prefix("agent-bundle-place-").tempdir().map_err(|e| failed(&e))?;
                let base =
                    Utf8PathBuf::from_path_buf(temp.path().to_path_buf()).map_err(|_| failed(&"a non-UTF-8 path"))?;
                (Some(temp), base)
            }
        };
        let table = hosts::table(row.host);
        let surface = table.hooks.as_ref().expect("indexed hosts have hooks");
        let process = &surface.hook_process;
        let mut warnings = Vec::new();
        let (project, project_from) = match &request.project {
            Project::Fresh => {
                let dir = base.join("project");
                fs_err::create_dir_all(&dir).map_err(|e| failed(&e))?;
                (dir, "a fresh folder of the run".to_string())
            }
            other => {
                let named = input_project(&surface.places.project_keys, envelope);
                let (dir, from, warning) = chosen_project(other, named)?;
                warnings.extend(warning);
                (dir, from)
            }
        };
        let data = base.join("plugin-data");
        let mut env = Vec::new();
        for (variable, value) in &process.env {
            let value = match value {
                HookValue::Project => project.to_string(),
                HookValue::PluginRoot => plugin_root.to_string(),
                HookValue::PluginData => {
                    fs_err::create_dir_all(&data).map_err(|e| failed(&e))?;
                    data.to_string()
                }
                HookValue::HooksFolder => {
                    let document = surface.document.strip_prefix(surface.folder.as_deref().unwrap_or("")).unwrap_or("");
                    let document = document.trim_start_matches('/');
                    plugin_root.join(document).parent().unwrap_or(plugin_root).to_string()
                }
                HookValue::SessionId => match session_id(row, envelope) {
                    Some(id) => id,
                    None => continue,
                },
                HookValue::Literal(text) => text.clone(),
            };
            env.push((variable.clone(), value));
        }
        let mut shown_file = None;
        if let Some(file) = process.env_file.as_ref().filter(|f| f.events.contains(&row.native_event)) {
            let path = base.join("env-file.sh");
            fs_err::write(&path, "").map_err(|e| failed(&e))?;
            env.push((file.variable.clone(), path.to_string()));
            shown_file = Some(WrittenEnvFile {
                variable: file.variable.clone(),
                path: path.to_string(),
                written: String::new(),
                read_back: file.read_back.clone(),
            });
        }
        env.extend(request.env.iter().cloned());
        let cwd = match process.working_folder {
            HookFolder::Project => project.clone(),
            HookFolder::PluginRoot => plugin_root.to_path_buf(),
        };
        let shown = ShownPlace {
            working_folder: cwd.to_string(),
            project: project.to_string(),
            project_from,
            env: env.iter().cloned().collect(),
            env_file: shown_file,
        };
        Ok(Place { _temp: temp, cwd, env, shown, warnings })
    }

    /// The place as shown once the hook has run: with what it wrote to the host's env file.
    pub(super) fn finished(mut self) -> (ShownPlace, Vec<String>) {
        if let Some(file) = &mut self.shown.env_file {
            file.written = std::fs::read_to_string(&file.path).unwrap_or_default();
        }
        (self.shown, self.warnings)
    }
}

/// The project folder an envelope names, by the host's project keys in order: a string, or a list
/// whose first item is one (Cursor's `workspace_roots`).
pub(super) fn input_project(keys: &[String], envelope: &Value) -> Option<String> {
    keys.iter().find_map(|key| match envelope.get(key)? {
        Value::String(dir) if !dir.is_empty() => Some(dir.clone()),
        Value::Array(items) => items.first().and_then(Value::as_str).filter(|d| !d.is_empty()).map(str::to_string),
        _ => None,
    })
}

/// The session id an envelope carries, under the host's key for the canonical `sessionId`.
fn session_id(row: &IndexRow, envelope: &Value) -> Option<String> {
    let table = hosts::table(row.host);
    let surface = table.hooks.as_ref()?;
    let mapping = table.mapping_for(row.event, row.hooks_module).ok()?;
    let mut fields = surface.input_fields(mapping);
    let key = fields.find(|f| f.canonical.as_deref() == Some("sessionId"))?.key.clone();
    envelope.get(&key).and_then(Value::as_str).map(str::to_string)
}

/// `--env` as given: `KEY=VALUE`, the key a variable's name.
pub fn parse_env(text: &str) -> Result<(String, String), String> {
    let (key, value) = text.split_once('=').ok_or_else(|| format!("`{text}`: write it as KEY=VALUE"))?;
    let valid = !key.is_empty()
        && !key.starts_with(|c: char| c.is_ascii_digit())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(format!("`{key}` is not a variable's name (letters, digits and `_`, not starting with a digit)"));
    }
    Ok((key.to_string(), value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_pairs_are_read_as_key_and_value() {
        assert_eq!(parse_env("A_B=c=d").unwrap(), ("A_B".into(), "c=d".into()));
        assert_eq!(parse_env("EMPTY=").unwrap(), ("EMPTY".into(), String::new()));
        assert!(parse_env("novalue").unwrap_err().contains("KEY=VALUE"));
        assert!(parse_env("1X=y").unwrap_err().contains("not a variable"));
        assert!(parse_env("A-B=y").unwrap_err().contains("not a variable"));
    }

    #[test]
    fn the_project_is_read_by_the_hosts_keys_in_order() {
        let keys = vec!["workspace_roots".to_string(), "cwd".to_string()];
        let envelope = serde_json::json!({ "workspace_roots": ["/w"], "cwd": "/c" });
        assert_eq!(input_project(&keys, &envelope).as_deref(), Some("/w"));
        let envelope = serde_json::json!({ "workspace_roots": [], "cwd": "/c" });
        assert_eq!(input_project(&keys, &envelope).as_deref(), Some("/c"));
        assert_eq!(input_project(&keys, &serde_json::json!({})), None);
    }
}
