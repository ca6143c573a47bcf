//! Hook identity (D3 in docs/decisions.md): the original's stable JSON of the declaration, its
//! SHA-256, and the `<event>-<handler>-<hash8>` name built from it, bit for bit.

use serde_json::{Map, Value, json};

use crate::vocabulary::canonical::{CanonicalEvent, Selector};
use crate::vocabulary::digest::sha256_hex;
use crate::vocabulary::target::Target;

use super::{NativeSelector, Timeout};

/// Everything the identity hash covers.
pub struct Identity<'a> {
    pub event: CanonicalEvent,
    /// The handler (or prebuilt file) path relative to the bundle root, `/`-separated.
    pub handler: &'a str,
    pub targets: &'a [Target],
    pub tools: &'a [Selector],
    pub native_tools: &'a [NativeSelector],
    /// `mcp:<server>` selectors; hashed only when non-empty, so other hooks keep their names.
    pub mcp_tools: &'a [super::mcp::McpToolSelector],
    pub timeout: Timeout,
    /// Only for prebuilt handlers; hashed when non-empty.
    pub args: &'a [String],
    /// `<payload>/<path inside the payload>`, only for prebuilt handlers.
    pub prebuilt_path: Option<&'a str>,
    /// Hashed only when set, so hooks declared before the key existed keep their names.
    pub fail_closed: bool,
    /// sessionStart sources; hashed only when non-empty.
    pub sources: &'a [String],
    /// The declared stdin limit; hashed only when set, like `failClosed`.
    pub max_input_bytes: Option<u64>,
    /// `onMissingSelector`; hashed only when not the default, like `failClosed`.
    pub on_missing_selector: crate::vocabulary::canonical::MissingSelector,
    /// `async: true`; hashed only when set.
    pub run_async: bool,
    /// `statusMessage`; hashed only when set.
    pub status_message: Option<&'a str>,
}

impl Identity<'_> {
    /// The original's "stable JSON": keys sorted, no whitespace, optional keys absent.
    pub fn stable_json(&self) -> String {
        let mut object = Map::new();
        if !self.args.is_empty() {
            object.insert("args".into(), json!(self.args));
        }
        if self.run_async {
            object.insert("async".into(), json!(true));
        }
        object.insert("event".into(), json!(self.event.name()));
        if self.fail_closed {
            object.insert("failClosed".into(), json!(true));
        }
        object.insert("handler".into(), json!(self.handler));
        if let Some(bytes) = self.max_input_bytes {
            object.insert("maxInputBytes".into(), json!(bytes));
        }
        if self.on_missing_selector != crate::vocabulary::canonical::MissingSelector::Error {
            object.insert("onMissingSelector".into(), json!(self.on_missing_selector.name()));
        }
        if !self.native_tools.is_empty() {
            let native: Vec<Value> =
                self.native_tools.iter().map(|n| json!({ "name": n.name, "target": n.target.name() })).collect();
            object.insert("nativeTools".into(), Value::Array(native));
        }
        if !self.mcp_tools.is_empty() {
            let own: Vec<String> = self.mcp_tools.iter().map(|m| m.written()).collect();
            object.insert("mcpTools".into(), json!(own));
        }
        if let Some(prebuilt) = self.prebuilt_path {
            object.insert("prebuiltPath".into(), json!(prebuilt));
        }
        if !self.sources.is_empty() {
            object.insert("sources".into(), json!(self.sources));
        }
        if let Some(message) = self.status_message {
            object.insert("statusMessage".into(), json!(message));
        }
        object.insert("targets".into(), json!(self.targets.iter().map(|t| t.name()).collect::<Vec<_>>()));
        object.insert(
            "timeout".into(),
            match self.timeout {
                Timeout::HostDefault => json!("host-default"),
                Timeout::Seconds(seconds) => json!(seconds),
            },
        );
        object.insert("tools".into(), json!(self.tools.iter().map(|s| s.name()).collect::<Vec<_>>()));
        // Keys sorted by code unit, as the original's stable JSON sorts them (ASCII keys).
        crate::vocabulary::json::compact(&Value::Object(object))
    }

    /// The first eight hex digits of the SHA-256 of [`Self::stable_json`].
    pub fn hash8(&self) -> String {
        sha256_hex(self.stable_json().as_bytes())[..8].to_string()
    }
}

/// The handler part of a hook name: the file's base name without its last extension, lowercased,
/// each run of characters outside `[a-z0-9]` turned into one `-`.
pub fn handler_slug(handler_path: &str) -> String {
    let base = handler_path.rsplit('/').next().unwrap_or(handler_path);
    let stem = match base.rfind('.') {
        Some(dot) if dot > 0 => &base[..dot],
        _ => base,
    };
    let mut slug = String::new();
    for c in stem.to_lowercase().chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_matches('-');
    if slug.is_empty() { "handler".to_string() } else { slug.to_string() }
}

/// `(name, id)` of a hook.
pub fn name_and_id(event: CanonicalEvent, handler_path: &str, hash8: &str) -> (String, String) {
    let event = event.kebab();
    let handler = handler_slug(handler_path);
    (format!("{event}-{handler}-{hash8}"), format!("hook:{event}:{handler}:{hash8}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity<'a>(
        event: CanonicalEvent,
        handler: &'a str,
        targets: &'a [Target],
        tools: &'a [Selector],
        timeout: Timeout,
    ) -> Identity<'a> {
        Identity {
            event,
            handler,
            targets,
            tools,
            native_tools: &[],
            mcp_tools: &[],
            timeout,
            args: &[],
            prebuilt_path: None,
            fail_closed: false,
            on_missing_selector: Default::default(),
            sources: &[],
            max_input_bytes: None,
            run_async: false,
            status_message: None,
        }
    }

    const BOTH: &[Target] = &[Target::Claude, Target::Codex];

    #[test]
    fn vector_session_start() {
        let id = identity(CanonicalEvent::SessionStart, "src/hooks/session-start.ts", BOTH, &[], Timeout::HostDefault);
        assert_eq!(
            id.stable_json(),
            r#"{"event":"sessionStart","handler":"src/hooks/session-start.ts","targets":["claude","codex"],"timeout":"host-default","tools":[]}"#
        );
        assert_eq!(id.hash8(), "7ab7e8a5");
    }

    #[test]
    fn vector_before_tool_check_command() {
        let id = identity(
            CanonicalEvent::BeforeTool,
            "src/hooks/check-command.ts",
            BOTH,
            &[Selector::Shell],
            Timeout::Seconds(7),
        );
        assert_eq!(id.hash8(), "1f5b5818");
    }

    #[test]
    fn vector_after_tool_record() {
        let tools = [Selector::FileWrite, Selector::Shell];
        let id = identity(CanonicalEvent::AfterTool, "src/hooks/record.ts", BOTH, &tools, Timeout::HostDefault);
        assert_eq!(id.hash8(), "87785f02");
    }

    #[test]
    fn vector_stop() {
        let id = identity(CanonicalEvent::Stop, "src/hooks/stop.ts", BOTH, &[], Timeout::HostDefault);
        assert_eq!(id.hash8(), "bb2d7935");
    }

    #[test]
    fn computed_vectors_with_native_tools_and_prebuilt() {
        let native = [NativeSelector { target: Target::Claude, name: "WebSearch".into() }];
        let id = Identity {
            native_tools: &native,
            ..identity(
                CanonicalEvent::BeforeTool,
                "src/hooks/search.ts",
                BOTH,
                &[Selector::Shell],
                Timeout::HostDefault,
            )
        };
        assert_eq!(id.hash8(), "599531b4");

        let args = ["--host".to_string(), "claude".to_string()];
        let id = Identity {
            args: &args,
            prebuilt_path: Some("runtime/hook/index.js"),
            ..identity(
                CanonicalEvent::AfterTool,
                "dist/runtime/hook/index.js",
                &[Target::Claude],
                &[Selector::FileWrite],
                Timeout::HostDefault,
            )
        };
        assert_eq!(
            id.stable_json(),
            r#"{"args":["--host","claude"],"event":"afterTool","handler":"dist/runtime/hook/index.js","prebuiltPath":"runtime/hook/index.js","targets":["claude"],"timeout":"host-default","tools":["file.write"]}"#
        );
        assert_eq!(id.hash8(), "5b17b5df");
    }

    #[test]
    fn slugs_follow_the_original() {
        assert_eq!(handler_slug("src/hooks/session-start.ts"), "session-start");
        assert_eq!(handler_slug("src/foo.test.ts"), "foo-test");
        assert_eq!(handler_slug("src/Guard_Writes.TS"), "guard-writes");
        assert_eq!(handler_slug("src/___.ts"), "handler");
        assert_eq!(
            name_and_id(CanonicalEvent::SessionStart, "src/hooks/session-start.ts", "7ab7e8a5"),
            (
                "session-start-session-start-7ab7e8a5".to_string(),
                "hook:session-start:session-start:7ab7e8a5".to_string()
            )
        );
    }

    #[test]
    fn fail_closed_and_sources_are_hashed_only_when_set() {
        let plain = identity(CanonicalEvent::BeforeTool, "src/hooks/guard.ts", BOTH, &[], Timeout::HostDefault);
        assert!(!plain.stable_json().contains("failClosed"));
        let closed = Identity { fail_closed: true, ..plain };
        assert_eq!(
            closed.stable_json(),
            r#"{"event":"beforeTool","failClosed":true,"handler":"src/hooks/guard.ts","targets":["claude","codex"],"timeout":"host-default","tools":[]}"#
        );
        let sources = ["resume".to_string(), "startup".to_string()];
        let greeted = Identity {
            sources: &sources,
            ..identity(CanonicalEvent::SessionStart, "src/hooks/greet.ts", BOTH, &[], Timeout::HostDefault)
        };
        assert!(greeted.stable_json().contains(r#""sources":["resume","startup"],"targets""#));
    }
}
