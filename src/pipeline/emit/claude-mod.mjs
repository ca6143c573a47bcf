// agent-bundle's helpers of a Claude Code hooks module, written by `cargo agent-bundle build` beside
// the module (agent-bundle-mod.mjs) that registers the plugin's hooks. Do not edit: the next build
// rewrites this file.
//
// Claude Code runs a hooks module in a worker of its own, with no Node: this file, the module, the
// wrappers it imports and their handlers' bundles are plain ES modules with static imports only. For
// each `tool.call` a hook is registered on, the helper makes the envelope that hook's wrapper contract
// expects of the call (the tool's arguments, which Claude Code flattens onto the event, and the
// session's id, transcript and folder, asked of `$.session`) and has the runtime's core decide it
// (`decideInProcess`: the same validation, handler call, result checks and projection as a wrapper
// process, within the hook's deadline, kept on the engine's clock). Then it carries the answer out the
// way `tool.call` takes one:
//   - `deny`: answered without running the tool; the model reads the reason as the call's error;
//   - `args`: the call runs with these arguments instead (its `tool` and id kept);
//   - `context`: added to the call's result as context the model reads after the tool's result (with
//     a denial, which carries no context there, after the reason, in the error the model reads);
//   - the blocking code (a fail-closed hook that failed, a guard part with no channel here): denied,
//     with the runtime's line as the reason; any other failure is logged and the call goes on.
// Each registration calls these helpers from function literals (the hooks module's validator reads
// the hook as one) and carries `.catch(...)` with `onFailure`: a failure the runtime cannot catch (the engine's
// budget spent in code that never yields, a worker that ends) refuses the call when the hook is
// fail-closed, since Claude Code's hooks module lets a failed hook's call through by default.

import { decideInProcess, failureLine } from './agent-bundle-core.mjs';

// The keys of `tool.call`'s event that are not the tool's own arguments (claude-code.d.ts: reserved,
// or a hook's to set), kept as they are when the arguments are rewritten.
const RESERVED = ['tool', 'tool_use_id', 'agentId', 'requestMeta', 'consent'];

function toolInput(e) {
  const input = {};
  for (const key of Object.keys(e)) {
    if (!RESERVED.includes(key)) input[key] = e[key];
  }
  return input;
}

function reserved(e) {
  const kept = {};
  for (const key of RESERVED) {
    if (Object.hasOwn(e, key)) kept[key] = e[key];
  }
  return kept;
}

// What every envelope of a session carries, as Claude Code's command hooks receive it.
async function sessionFields($) {
  const [id, cwd, info] = await Promise.all([$.session.id(), $.session.cwd(), $.session.info()]);
  const fields = { session_id: id, transcript_path: info?.transcriptPath ?? '', cwd };
  if (typeof info?.promptId === 'string') fields.prompt_id = info.promptId;
  return fields;
}

// The runtime's timer, on the engine's clock (a hooks module waits on `$.clock`).
function engineTimer($) {
  return (ms, fn) => {
    const timer = $.clock.after(ms, fn);
    return () => timer.cancel();
  };
}

// The runtime's lines for stderr go to Claude Code's debug log, where a command hook's stderr goes.
function log($, lines) {
  for (const line of lines) $.ui.log(line, { to: 'debug' });
}

function withContext(ran, context) {
  if (ran.deny !== undefined) return ran;
  return { ...ran, context: [...(ran.context ?? []), context] };
}

// The decision of one call: the envelope Claude Code's command hook would get for it (`extra`: the
// event's own fields), decided by the runtime's core.
async function decideCall($, wrapper, e, extra) {
  const { contract, loadHandler } = wrapper;
  const envelope = {
    hook_event_name: contract.hook.nativeEvent,
    ...(await sessionFields($)),
    tool_name: e.tool,
    tool_input: toolInput(e),
    tool_use_id: e.tool_use_id,
    ...extra,
  };
  const decision = await decideInProcess(contract, envelope, loadHandler, engineTimer($));
  log($, decision.stderr);
  return decision;
}

// A beforeTool hook: judged before the call runs.
export async function beforeTool(wrapper, $, e, next) {
  const { code, stderr, stdout } = await decideCall($, wrapper, e, {});
  if (code !== 0 && code !== 1) return { deny: stderr.join('\n') };
  if (code === 1 || stdout === undefined) return next(e);
  const answer = JSON.parse(stdout);
  // A denial carries no context of its own there: the model reads the context after the reason.
  if (answer.deny !== undefined) {
    return { deny: answer.context === undefined ? answer.deny : `${answer.deny}\n\n${answer.context}` };
  }
  const ran = await next(answer.args === undefined ? e : { ...answer.args, ...reserved(e) });
  return answer.context === undefined ? ran : withContext(ran, answer.context);
}

// An afterTool hook: judged once the call has run, unless it was refused or failed (Claude Code's
// PostToolUse does not fire for those either).
export async function afterTool(wrapper, $, e, next) {
  const ran = await next(e);
  if (ran.deny !== undefined || ran.isError === true) return ran;
  const { code, stdout } = await decideCall($, wrapper, e, { tool_response: ran.result ?? null });
  if (code !== 0 || stdout === undefined) return ran;
  const answer = JSON.parse(stdout);
  return answer.context === undefined ? ran : withContext(ran, answer.context);
}

// The registration's `.catch`: the hook failed where the runtime could not answer for it.
export function onFailure(wrapper, $, e, next) {
  const { contract } = wrapper;
  if (next.called || contract.hook.failClosed === undefined) return next(e);
  const why = next.error?.kind === 'timeout'
    ? "it outran Claude Code's budget for a hook"
    : `it failed in Claude Code's hooks module${next.error?.message ? `: ${next.error.message}` : ''}`;
  const line = failureLine(contract, why);
  log($, [line]);
  return { deny: line };
}
