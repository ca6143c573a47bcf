//! Envelopes the real hosts sent (recorded offline, `testdata/envelopes/`), one per host and native
//! event: what the Workbench's editor starts with when a hook runs on a native envelope.

/// (target, native event, the envelope's JSON text).
pub const RECORDED: &[(&str, &str, &str)] = &[
    ("claude", "PermissionRequest", include_str!("../../../testdata/envelopes/claude-code/PermissionRequest.json")),
    ("claude", "PostToolUse", include_str!("../../../testdata/envelopes/claude-code/PostToolUse.json")),
    ("claude", "PostToolUseFailure", include_str!("../../../testdata/envelopes/claude-code/PostToolUseFailure.json")),
    ("claude", "PreToolUse", include_str!("../../../testdata/envelopes/claude-code/PreToolUse.json")),
    ("claude", "SessionEnd", include_str!("../../../testdata/envelopes/claude-code/SessionEnd.json")),
    ("claude", "SessionStart", include_str!("../../../testdata/envelopes/claude-code/SessionStart.json")),
    ("claude", "Stop", include_str!("../../../testdata/envelopes/claude-code/Stop.json")),
    ("claude", "UserPromptSubmit", include_str!("../../../testdata/envelopes/claude-code/UserPromptSubmit.json")),
    ("codex", "PostToolUse", include_str!("../../../testdata/envelopes/codex/PostToolUse.json")),
    ("codex", "PreToolUse", include_str!("../../../testdata/envelopes/codex/PreToolUse.json")),
    ("codex", "SessionEnd", include_str!("../../../testdata/envelopes/codex/SessionEnd.json")),
    ("codex", "SessionStart", include_str!("../../../testdata/envelopes/codex/SessionStart.json")),
    ("codex", "Stop", include_str!("../../../testdata/envelopes/codex/Stop.json")),
    ("codex", "UserPromptSubmit", include_str!("../../../testdata/envelopes/codex/UserPromptSubmit.json")),
    ("copilot", "agentStop", include_str!("../../../testdata/envelopes/copilot-cli/agentStop.json")),
    ("copilot", "permissionRequest", include_str!("../../../testdata/envelopes/copilot-cli/permissionRequest.json")),
    ("copilot", "postToolUse", include_str!("../../../testdata/envelopes/copilot-cli/postToolUse.json")),
    ("copilot", "postToolUseFailure", include_str!("../../../testdata/envelopes/copilot-cli/postToolUseFailure.json")),
    ("copilot", "preMcpToolCall", include_str!("../../../testdata/envelopes/copilot-cli/preMcpToolCall.json")),
    ("copilot", "preToolUse", include_str!("../../../testdata/envelopes/copilot-cli/preToolUse.json")),
    ("copilot", "sessionEnd", include_str!("../../../testdata/envelopes/copilot-cli/sessionEnd.json")),
    ("copilot", "sessionStart", include_str!("../../../testdata/envelopes/copilot-cli/sessionStart.json")),
    ("copilot", "subagentStart", include_str!("../../../testdata/envelopes/copilot-cli/subagentStart.json")),
    ("copilot", "subagentStop", include_str!("../../../testdata/envelopes/copilot-cli/subagentStop.json")),
    (
        "copilot",
        "userPromptSubmitted",
        include_str!("../../../testdata/envelopes/copilot-cli/userPromptSubmitted.json"),
    ),
    (
        "copilot",
        "userPromptTransformed",
        include_str!("../../../testdata/envelopes/copilot-cli/userPromptTransformed.json"),
    ),
    ("gemini", "AfterAgent", include_str!("../../../testdata/envelopes/gemini-cli/AfterAgent.json")),
    ("gemini", "AfterModel", include_str!("../../../testdata/envelopes/gemini-cli/AfterModel.json")),
    ("gemini", "AfterTool", include_str!("../../../testdata/envelopes/gemini-cli/AfterTool.json")),
    ("gemini", "BeforeAgent", include_str!("../../../testdata/envelopes/gemini-cli/BeforeAgent.json")),
    ("gemini", "BeforeModel", include_str!("../../../testdata/envelopes/gemini-cli/BeforeModel.json")),
    ("gemini", "BeforeTool", include_str!("../../../testdata/envelopes/gemini-cli/BeforeTool.json")),
    ("gemini", "BeforeToolSelection", include_str!("../../../testdata/envelopes/gemini-cli/BeforeToolSelection.json")),
    ("gemini", "PreCompress", include_str!("../../../testdata/envelopes/gemini-cli/PreCompress.json")),
    ("gemini", "SessionEnd", include_str!("../../../testdata/envelopes/gemini-cli/SessionEnd.json")),
    ("gemini", "SessionStart", include_str!("../../../testdata/envelopes/gemini-cli/SessionStart.json")),
];

/// The recorded envelope of `target`'s `native` event, if one was recorded.
pub fn recorded(target: &str, native: &str) -> Option<serde_json::Value> {
    RECORDED
        .iter()
        .find(|(t, n, _)| *t == target && *n == native)
        .and_then(|(_, _, text)| serde_json::from_str(text).ok())
}
