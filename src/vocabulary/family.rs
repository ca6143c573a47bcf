//! The event-route families (D12): the 22 families a route file under `src/events/` may answer, with
//! the family-level rules the page and the original state (which families may deny, allow, ask,
//! rewrite or add context; which see tool calls; which payload fields they carry). Hosts map them
//! to native events, envelopes and answer channels in their tables, and may be stricter.

use super::canonical::ResultPart;

/// One event-route family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Family {
    /// `group/name`, or one segment (`stop`).
    pub name: &'static str,
    /// The family may deny (or block) at all.
    pub deny: bool,
    /// The family makes permission decisions: an explicit allow.
    pub allow: bool,
    /// … and an ask.
    pub ask: bool,
    /// The family may replace the tool's input.
    pub rewrite: bool,
    /// The family may add context for the model.
    pub context: bool,
    /// The family sees tool calls, so a route may filter by `tools`.
    pub tools: bool,
    /// The family starts a session, so a route may answer variables for it (`extra.env`).
    pub session_env: bool,
    /// The canonical payload fields a route of this family may receive (each as `{ value, nativeKey }`,
    /// absent when the host did not send it).
    pub payload: &'static [&'static str],
}

const S: [&str; 6] = ["sessionId", "cwd", "transcriptPath", "permissionMode", "agentId", "agentType"];

/// `S` plus the model, then `extra`.
const fn s3<const N: usize, const M: usize>(extra: [&'static str; N]) -> [&'static str; M] {
    let mut out = [""; M];
    let mut i = 0;
    while i < 6 {
        out[i] = S[i];
        i += 1;
    }
    out[6] = "model";
    let mut j = 0;
    while j < N {
        out[7 + j] = extra[j];
        j += 1;
    }
    out
}

/// `S`, then `extra`.
const fn s<const N: usize, const M: usize>(extra: [&'static str; N]) -> [&'static str; M] {
    let mut out = [""; M];
    let mut i = 0;
    while i < 6 {
        out[i] = S[i];
        i += 1;
    }
    let mut j = 0;
    while j < N {
        out[6 + j] = extra[j];
        j += 1;
    }
    out
}

const OBSERVES: Family = Family {
    name: "",
    deny: false,
    allow: false,
    ask: false,
    rewrite: false,
    context: false,
    tools: false,
    session_env: false,
    payload: &[],
};

const SESSION_START: [&str; 8] = s3(["source"]);
const TOOL_BEFORE: [&str; 10] = s3(["toolName", "toolInput", "toolUseId"]);
const TOOL_AFTER: [&str; 11] = s3(["toolName", "toolInput", "toolUseId", "toolResponse"]);
const STOP: [&str; 9] = s3(["reentry", "lastAssistantMessage"]);
const AGENT_START: [&str; 7] = s3([]);
const AGENT_STOP: [&str; 10] = s3(["agentTranscriptPath", "reentry", "lastAssistantMessage"]);
const SESSION_END: [&str; 8] = s3(["reason"]);
const PROMPT_SUBMIT: [&str; 8] = s3(["prompt"]);
const TOOL_FAILURE: [&str; 8] =
    ["sessionId", "cwd", "transcriptPath", "toolName", "toolInput", "toolUseId", "error", "isInterrupt"];
const COMPACT_BEFORE: [&str; 8] = s3(["trigger"]);
const COMPACT_AFTER: [&str; 7] = s(["trigger"]);
const PERMISSION: [&str; 8] = s(["toolName", "toolInput"]);
const STOP_FAILURE: [&str; 9] = s(["error", "reentry", "lastAssistantMessage"]);
const FILE_CHANGE: [&str; 7] = s(["filePath"]);
const CONFIG_CHANGE: [&str; 8] = s(["source", "filePath"]);
const TASK: [&str; 11] = s(["taskId", "taskSubject", "taskDescription", "teammateName", "teamName"]);
const AGENT_IDLE: [&str; 8] = s(["teammateName", "teamName"]);
const MODEL_SWITCH: [&str; 10] = s(["fromModel", "toModel", "requestedModel", "source"]);

/// Every family, in the order the original lists them.
pub const FAMILIES: [Family; 22] = [
    Family { name: "session/start", context: true, session_env: true, payload: &SESSION_START, ..OBSERVES },
    Family {
        name: "tool/before",
        deny: true,
        allow: true,
        ask: true,
        rewrite: true,
        context: true,
        tools: true,
        payload: &TOOL_BEFORE,
        ..OBSERVES
    },
    Family { name: "tool/after", context: true, tools: true, payload: &TOOL_AFTER, ..OBSERVES },
    Family { name: "stop", deny: true, payload: &STOP, ..OBSERVES },
    Family { name: "agent/start", deny: true, context: true, payload: &AGENT_START, ..OBSERVES },
    Family { name: "agent/stop", deny: true, context: true, payload: &AGENT_STOP, ..OBSERVES },
    Family { name: "workspace/open", payload: &["workspaceRoots"], ..OBSERVES },
    Family { name: "session/end", payload: &SESSION_END, ..OBSERVES },
    Family { name: "prompt/submit", deny: true, context: true, payload: &PROMPT_SUBMIT, ..OBSERVES },
    Family { name: "tool/failure", context: true, tools: true, payload: &TOOL_FAILURE, ..OBSERVES },
    Family { name: "compact/before", deny: true, payload: &COMPACT_BEFORE, ..OBSERVES },
    Family { name: "compact/after", payload: &COMPACT_AFTER, ..OBSERVES },
    Family { name: "permission/request", deny: true, allow: true, tools: true, payload: &PERMISSION, ..OBSERVES },
    Family { name: "permission/denied", tools: true, payload: &PERMISSION, ..OBSERVES },
    Family { name: "stop/failure", payload: &STOP_FAILURE, ..OBSERVES },
    Family { name: "file/change", payload: &FILE_CHANGE, ..OBSERVES },
    Family { name: "config/change", deny: true, payload: &CONFIG_CHANGE, ..OBSERVES },
    Family { name: "task/create", deny: true, payload: &TASK, ..OBSERVES },
    Family { name: "task/complete", payload: &TASK, ..OBSERVES },
    Family { name: "agent/idle", deny: true, payload: &AGENT_IDLE, ..OBSERVES },
    Family { name: "model-switch/before", deny: true, allow: true, ask: true, payload: &MODEL_SWITCH, ..OBSERVES },
    Family { name: "model-switch/after", context: true, payload: &MODEL_SWITCH, ..OBSERVES },
];

impl Family {
    pub fn from_name(name: &str) -> Option<Family> {
        FAMILIES.into_iter().find(|f| f.name == name)
    }

    /// The family observes only: no part of a result is legal.
    pub fn observes_only(self) -> bool {
        !(self.deny || self.allow || self.ask || self.rewrite || self.context)
    }

    /// The family-level rule that makes `part` illegal for this family's routes on every host.
    pub fn refuses(self, part: ResultPart) -> Option<String> {
        if self.observes_only() {
            return Some(format!("{} only observes: render nothing, or a result with outcome \"continue\"", self.name));
        }
        let admitted = match part {
            ResultPart::Deny => self.deny,
            ResultPart::Allow => self.allow,
            ResultPart::Ask => self.ask,
            ResultPart::UpdatedInput => self.rewrite,
            ResultPart::AdditionalContext => self.context,
        };
        (!admitted).then(|| format!("{} routes cannot take {}", self.name, part.described()))
    }

    /// How capability rows and type names write the family: `model-switch/before` → `modelSwitchBefore`.
    pub fn camel(self) -> String {
        let mut out = String::new();
        let mut upper = false;
        for c in self.name.chars() {
            if c == '/' || c == '-' {
                upper = true;
            } else if upper {
                out.push(c.to_ascii_uppercase());
                upper = false;
            } else {
                out.push(c);
            }
        }
        out
    }

    /// The hook name part of a route: the family with its first `/` as `-` (`tool-after`).
    pub fn slug(self) -> String {
        self.name.replacen('/', "-", 1)
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_two_distinct_families_of_one_or_two_segments() {
        let mut names: Vec<&str> = FAMILIES.iter().map(|f| f.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 22);
        assert!(FAMILIES.iter().all(|f| f.name.split('/').count() <= 2));
        assert_eq!(FAMILIES.iter().filter(|f| !f.name.contains('/')).map(|f| f.name).collect::<Vec<_>>(), ["stop"]);
    }

    #[test]
    fn the_references_deny_admission_and_observation_lists_hold() {
        let deny: Vec<&str> = FAMILIES.iter().filter(|f| f.deny).map(|f| f.name).collect();
        assert_eq!(
            deny,
            [
                "tool/before",
                "stop",
                "agent/start",
                "agent/stop",
                "prompt/submit",
                "compact/before",
                "permission/request",
                "config/change",
                "task/create",
                "agent/idle",
                "model-switch/before"
            ]
        );
        let observing: Vec<&str> = FAMILIES.iter().filter(|f| f.observes_only()).map(|f| f.name).collect();
        assert_eq!(
            observing,
            [
                "workspace/open",
                "session/end",
                "compact/after",
                "permission/denied",
                "stop/failure",
                "file/change",
                "task/complete"
            ]
        );
    }

    #[test]
    fn payload_fields_are_distinct_and_named() {
        for family in FAMILIES {
            let mut fields = family.payload.to_vec();
            assert!(fields.iter().all(|f| !f.is_empty()), "{family}");
            fields.sort_unstable();
            fields.dedup();
            assert_eq!(fields.len(), family.payload.len(), "{family}");
        }
    }
}
