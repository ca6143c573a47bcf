// The agent-bundle module for Cline CLI, written into the artifact's cline/ folder by `cargo
// agent-bundle build`. Do not edit: the next build rewrites this file.
//
// Cline runs a file per event from its hooks folders (`PreToolUse.mjs`, `PostToolUse.mjs`, …, the
// hook files agent-bundle writes beside this module and, at install, into the hooks folder), with
// the event's payload on stdin and its answer read from stdout. A hook file hands the payload to
// this module's `answer`, which makes the envelope its hook document's entries expect (the payload,
// with its tool call's name, input and id at the top, the project as `cwd` and the session as
// `sessionId`) and has the shared runtime run them (`inProcessHooks`: hooks.json beside this file,
// each hook's wrapper module decided through the runtime's decideInProcess, the same validation,
// handler call, result checks and projection as every wrapper process). Then it makes Cline's answer:
//   - `block` (PreToolUse): `{ cancel: true, errorMessage }`: the tool does not run and Cline ends
//     the run (the reason does not reach the model);
//   - `args` (PreToolUse): `overrideInput`, the input the tool runs with; the later hooks of the
//     call see it;
//   - `context` (PreToolUse of a call that runs, PostToolUse): `contextModification`, which Cline
//     gives the model after the tool's result;
//   - a decision with the blocking code (a fail-closed hook that failed, a guard part Cline has no
//     channel for): `{ cancel: true, errorMessage }` too, since Cline runs the tool when a hook file
//     fails (it fails open); any other failure is logged and the call goes on.

// The envelope of one hook file's payload.
function envelopeOf(payload) {
  const call = payload.tool_call ?? payload.tool_result;
  const tool = call === undefined ? {} : { toolName: call.name, toolInput: call.input, toolCallId: call.id };
  const result = payload.tool_result === undefined ? {} : { toolOutput: payload.tool_result.output };
  const cwd = payload.workspaceInfo?.rootPath ?? payload.workspaceRoots?.[0];
  const sessionId = payload.sessionContext?.rootSessionId ?? payload.taskId;
  return { ...payload, ...tool, ...result, cwd, sessionId };
}

let hooks;
async function loaded() {
  if (hooks === undefined) {
    const { inProcessHooks } = await import(new URL('./hooks/agent-bundle-runtime.mjs', import.meta.url).href);
    hooks = inProcessHooks(import.meta.url);
  }
  return hooks;
}

export const AgentBundle = {
  // Cline's answer to `payload` (what a hook file prints), or undefined when the hooks have none.
  async answer(payload) {
    const { run, log, takes } = await loaded();
    const native = payload.hookName;
    if (typeof native !== 'string' || !takes(native)) return undefined;
    const call = payload.tool_call ?? payload.tool_result;
    let current = payload;
    let overrideInput;
    const context = [];
    try {
      await run(native, call?.name, () => envelopeOf(current), (answer) => {
        if (answer.block !== undefined) throw Object.assign(new Error(answer.block), { cancel: true });
        if (answer.args !== undefined && payload.tool_call !== undefined) {
          overrideInput = answer.args;
          current = { ...current, tool_call: { ...current.tool_call, input: answer.args } };
        }
        if (answer.context !== undefined) context.push(answer.context);
      });
    } catch (error) {
      // A denial, or a failure with the blocking code: Cline runs the tool unless it is told to cancel.
      if (native === 'tool_call') return { cancel: true, errorMessage: error.message };
      log([error.message]);
    }
    const answer = {};
    if (overrideInput !== undefined) answer.overrideInput = overrideInput;
    if (context.length > 0) answer.contextModification = context.join('\n\n');
    return Object.keys(answer).length === 0 ? undefined : answer;
  },
};

export default AgentBundle;

// `hooks simulate` of a call Cline was recorded making: the envelope of `recorded` when it is a
// hook file's payload (it names its hook), else undefined.
AgentBundle.recordedEnvelope = (native, recorded, directory) => {
  if (typeof recorded.hookName !== 'string' || recorded.taskId === undefined) return undefined;
  const envelope = envelopeOf(recorded);
  return { ...envelope, cwd: envelope.cwd ?? directory };
};
