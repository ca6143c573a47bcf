// The agent-bundle extension for Pi, written into the artifact's pi/ folder by `cargo agent-bundle
// build`. Do not edit: the next build rewrites this file.
//
// Pi loads this module (package.json's `pi.extensions`) in its own process and calls its default
// export with its extension API. For each event a hook takes, it makes the envelope its hook
// document's entries expect (the event, with the context's project folder and session id), and has
// the shared runtime run them (`inProcessHooks`: hooks.json beside this file, each hook's wrapper
// module decided through the runtime's decideInProcess, the same validation, handler call, result
// checks and projection as every wrapper process). Then it carries the answer out the way Pi takes
// one:
//   - `block` (tool_call): the tool does not run, and the model reads the reason as its result;
//   - `args` (tool_call): the call runs with this input instead (Pi runs the event's input as the
//     handlers leave it);
//   - `appendOutput` (tool_result): appended to the tool's result, which the model reads;
//   - `system` (session_start): added to the system prompt of every later prompt's requests
//     (before_agent_start's systemPrompt; session_start's own return is ignored by Pi);
//   - `followUp` (agent_end): sent as a follow-up message that starts another run, so the agent goes
//     on with the reason; the next agent_end tells the hooks `stopHookActive: true`, until the user's
//     next prompt;
//   - a decision with the blocking code (a fail-closed hook that failed, a guard part Pi has no
//     channel for): thrown, which Pi takes as a blocked call whose result is the error's message;
//     any other failure is logged and the call goes on (the hook fails open).
//
// This module imports nothing itself: Pi compiles the modules it loads (jiti), and the runtime and
// wrappers are plain ES modules, so they are imported natively, as every wrapper process runs them.
const importNatively = new Function('url', 'return import(url)');

// The envelope of one event's call: the event as Pi gave it, with the project folder (`cwd`) and
// the session id of the handler's context, and what the extension adds (agent_end: `stopHookActive`;
// a failed call's tool_result: `error`, the text of its result).
function envelopeOf(event, place, added = {}) {
  const failed = event.type === 'tool_result' && event.isError === true && Array.isArray(event.content);
  const error = failed ? { error: event.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n') } : {};
  return { ...event, ...error, ...added, cwd: place.cwd, sessionId: place.sessionId };
}

// How long a session's end waits for the agent_end of a run the stop hooks have yet to take.
const AGENT_END_WAIT_MS = 5000;

export const AgentBundle = async (pi) => {
  const runtime = new URL('./hooks/agent-bundle-runtime.mjs', import.meta.url).href;
  const { inProcessHooks } = await importNatively(runtime);
  const { run, log, takes } = inProcessHooks(import.meta.url);
  const placeOf = (ctx) => ({ cwd: ctx.cwd, sessionId: ctx.sessionManager?.getSessionId?.() });
  // The context session_start hooks gave, and whether a stop hook has kept the agent going since the
  // user's last prompt.
  const system = [];
  let stopHookActive = false;
  // The runs whose agent_end the stop hooks have yet to take.
  let runsToEnd = 0;
  // What stop hooks are deciding or the follow-ups they sent, until each settles.
  const unsettled = new Set();
  const settling = (work) => {
    const promise = work();
    unsettled.add(promise);
    const done = () => unsettled.delete(promise);
    promise.then(done, done);
    return promise;
  };

  if (takes('session_start')) {
    pi.on('session_start', async (event, ctx) => {
      // A hook's matcher there is over why the session started (its `sources`).
      await run('session_start', event.reason, () => envelopeOf(event, placeOf(ctx)), (answer) => {
        if (answer.system !== undefined) system.push(answer.system);
      }).catch((error) => log([error.message]));
    });
  }
  if (takes('session_start') || takes('agent_end')) {
    // Pi awaits this before each prompt's run (not a run a follow-up starts).
    pi.on('before_agent_start', async (event) => {
      if (takes('agent_end')) runsToEnd += 1;
      if (system.length === 0) return undefined;
      return { systemPrompt: [event.systemPrompt, ...system].join('\n\n') };
    });
  }
  if (takes('tool_call')) {
    pi.on('tool_call', async (event, ctx) => {
      let block;
      await run('tool_call', event.toolName, () => envelopeOf(event, placeOf(ctx)), (answer) => {
        if (answer.block !== undefined) block ??= answer.block;
        if (answer.args !== undefined) {
          for (const key of Object.keys(event.input)) delete event.input[key];
          Object.assign(event.input, answer.args);
        }
      });
      return block === undefined ? undefined : { block: true, reason: block };
    });
  }
  if (takes('tool_result')) {
    pi.on('tool_result', async (event, ctx) => {
      const added = [];
      await run('tool_result', event.toolName, () => envelopeOf(event, placeOf(ctx)), (answer) => {
        if (answer.appendOutput !== undefined) added.push({ type: 'text', text: answer.appendOutput });
      }).catch((error) => log([error.message]));
      return added.length === 0 ? undefined : { content: [...event.content, ...added] };
    });
  }
  if (takes('agent_end')) {
    pi.on('input', async (event) => {
      if (event.source !== 'extension') stopHookActive = false;
      return undefined;
    });
    // Pi does not wait for an agent_end handler before it ends the prompt's run, so a follow-up is
    // sent when the hooks have decided: it starts a new run (the agent goes on), which this handler
    // does not wait for (that run's tool calls wait for Pi's event queue, which waits for this).
    pi.on('agent_end', (event, ctx) => {
      runsToEnd = Math.max(0, runsToEnd - 1);
      return settling(async () => {
        const followUps = [];
        await run('agent_end', undefined, () => envelopeOf(event, placeOf(ctx), { stopHookActive }), (answer) => {
          if (answer.followUp !== undefined) followUps.push(answer.followUp);
        }).catch((error) => log([error.message]));
        if (followUps.length === 0) return;
        stopHookActive = true;
        const message = { customType: 'agent-bundle', content: followUps.join('\n\n'), display: true };
        // Idle, the follow-up starts a run of its own, whose agent_end the hooks take again.
        if (ctx.isIdle?.() !== false) runsToEnd += 1;
        settling(async () => pi.sendMessage(message, { deliverAs: 'followUp', triggerTurn: true }))
          .catch((error) => log([`agent-bundle could not keep the agent going: ${error.message}`]));
      });
    });
  }
  // A headless run (`pi -p`, `--mode json`) ends the session as soon as the prompt's run ends, with
  // session_shutdown, which Pi awaits before it lets go of the session: the runs whose agent_end
  // the stop hooks have not yet taken (Pi hands it over through a queue of its own), what they are
  // still deciding, and the runs their follow-ups start are awaited there, so none is cut off. An
  // agent_end that does not come within AGENT_END_WAIT_MS is not waited for any longer.
  if (takes('agent_end') || takes('session_shutdown')) {
    pi.on('session_shutdown', async (event, ctx) => {
      let waited = 0;
      while (unsettled.size > 0 || (runsToEnd > 0 && waited < AGENT_END_WAIT_MS)) {
        if (unsettled.size > 0) {
          await Promise.allSettled(unsettled);
        } else {
          await new Promise((resolve) => setTimeout(resolve, 5));
          waited += 5;
        }
      }
      await run('session_shutdown', undefined, () => envelopeOf(event, placeOf(ctx)), () => {})
        .catch((error) => log([error.message]));
    });
  }
};

export default AgentBundle;

// `hooks simulate` of a call Pi was recorded making: the envelope of `recorded` when it is an event
// as a handler received it with its context's summary (`{ event, ctx }`), else undefined.
AgentBundle.recordedEnvelope = (native, recorded, directory) => {
  if (recorded.event === undefined || typeof recorded.event.type !== 'string') return undefined;
  const place = { cwd: recorded.ctx?.cwd ?? directory, sessionId: recorded.ctx?.sessionId };
  return envelopeOf(recorded.event, place, recorded.event.type === 'agent_end' ? { stopHookActive: false } : {});
};
