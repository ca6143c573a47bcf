//! Envelopes the real hosts sent (recorded offline, `testdata/envelopes/`), one per host and native
//! event: what the Workbench's editor starts with when a hook runs on a native envelope. The list is
//! generated from the folder by build.rs; which folder is which host's, the host tables say.

include!(concat!(env!("OUT_DIR"), "/recorded_envelopes.rs"));

/// The recorded envelope of `target`'s `native` event, if one was recorded.
pub fn recorded(target: crate::vocabulary::target::Target, native: &str) -> Option<serde_json::Value> {
    let folder = crate::hosts::table(target).recorded_envelopes.as_deref()?;
    RECORDED
        .iter()
        .find(|(f, n, _)| *f == folder && *n == native)
        .and_then(|(_, _, text)| serde_json::from_str(text).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::target::Target;

    /// Folders of recordings no host table names, each with why: nothing recorded goes unoffered
    /// by oversight.
    const NOT_A_TABLES: &[(&str, &str)] = &[
        (
            "cline",
            "Cline CLI's hook files hand their payload to agent-bundle's module, which makes the envelope of it ({tool_call} at the top, issue 48)",
        ),
        ("opencode", "OpenCode's hooks are a module's arguments ({input, output}), not a command's stdin (issue 47)"),
        ("pi", "Pi's hooks are an extension's event and its context ({event, ctx}), not a command's stdin (issue 48)"),
        ("vscode-agent", "Copilot in VS Code, read as a foreign sender of Claude Code's events, not a host of its own"),
    ];

    #[test]
    fn every_recorded_host_is_offered_and_every_recording_folder_is_accounted_for() {
        let base = camino::Utf8Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/envelopes");
        let named: Vec<(Target, &str)> = Target::ALL
            .iter()
            .filter_map(|t| Some((*t, crate::hosts::table(*t).recorded_envelopes.as_deref()?)))
            .collect();
        let mut folders: Vec<String> = std::fs::read_dir(&base)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|name| base.join(name).is_dir())
            .collect();
        folders.sort();
        for folder in &folders {
            let named_by = named.iter().find(|(_, f)| f == folder);
            let excused = NOT_A_TABLES.iter().any(|(f, _)| f == folder);
            assert!(named_by.is_some() != excused, "{folder}: named by a table {named_by:?}, excused {excused}");
        }
        for (target, folder) in &named {
            let events: Vec<&str> = RECORDED.iter().filter(|(f, ..)| f == folder).map(|(_, e, _)| *e).collect();
            assert!(events.len() >= 4, "{target}: only {events:?} recorded in {folder}");
            for event in events {
                let sample = recorded(*target, event).unwrap_or_else(|| panic!("{target} {event}: not JSON"));
                assert!(sample.is_object(), "{target} {event}");
            }
        }
        // The six command hosts whose hook stdin was recorded are each offered, and Claude Code's
        // hooks module (its table extends Claude Code's) takes Claude Code's envelopes.
        assert_eq!(named.len(), 7, "{named:?}");
        assert_eq!(crate::hosts::table(Target::ClaudeMod).recorded_envelopes.as_deref(), Some("claude-code"));
    }
}
