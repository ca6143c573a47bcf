// The agent-bundle entry module for OpenCode, written into the artifact's opencode/ folder by
// `cargo agent-bundle build`. Do not edit: the next build rewrites this file.
//
// OpenCode loads this module in its own process and calls the hooks it returns. For each call it
// makes the envelope its hook document's entries expect, and has the shared runtime run them
// (`inProcessHooks`: hooks.json beside this file, each hook's wrapper module decided through the
// runtime's decideInProcess, the same validation, handler call, result checks and projection as
// every wrapper process). Then it carries the answer out the way OpenCode takes one:
//   - `throw`: the tool is blocked, and the model reads the reason (OpenCode shows a thrown error's
//     message as the tool's result);
//   - `args`: the call runs with these arguments instead;
//   - `appendOutput`: appended to the tool's output, which the model reads;
//   - `system`: added to the session's system prompt on every later model request;
//   - a decision with the blocking code (a fail-closed hook that failed, a guard part OpenCode has
//     no channel for): thrown, so the tool is blocked; any other failure is logged and the call
//     goes on (the hook fails open).
// A later hook of the same call sees the arguments an earlier one rewrote. An entry marked `async`
// (a hook declared `async: true`, on an event that cannot deny) is started and not waited for: the
// call goes on at once, and only the hook's lines are logged when it ends.

import { inProcessHooks } from './hooks/agent-bundle-runtime.mjs';

const { run, log } = inProcessHooks(import.meta.url);

// The envelope of one native event's call, made of OpenCode's hook arguments: `{ input, output }` for
// a tool hook, `{ event, parentID }` for a session event (`parentID`: the session it is a subagent
// of, when known).
function envelopeOf(native, args, directory) {
  switch (native) {
    case 'tool.execute.before':
      return { ...args.input, args: args.output.args, directory };
    case 'tool.execute.after':
      return { ...args.input, output: { ...args.output }, directory };
    case 'session.created': {
      const info = args.event.properties?.info ?? {};
      return { ...info, sessionID: info.id, directory: info.directory ?? directory };
    }
    case 'session.idle': {
      const parentID = args.parentID;
      return { sessionID: args.event.properties?.sessionID, directory, ...(parentID === undefined ? {} : { parentID }) };
    }
    default:
      throw new Error(`agent-bundle makes no envelope of OpenCode's ${native}`);
  }
}

export const AgentBundle = async ({ directory }) => {
  // Per session: the context its sessionStart hooks gave, the running sessionStart decision, and the
  // session it is a subagent of.
  const sessions = new Map();
  const applyTool = (output) => (answer) => {
    if (answer.throw !== undefined) throw new Error(answer.throw);
    if (answer.args !== undefined) {
      for (const key of Object.keys(output.args)) delete output.args[key];
      Object.assign(output.args, answer.args);
    }
    if (answer.appendOutput !== undefined) {
      output.output = `${output.output ?? ''}\n\n${answer.appendOutput}`;
    }
  };
  return {
    'tool.execute.before': async (input, output) => {
      const envelope = () => envelopeOf('tool.execute.before', { input, output }, directory);
      await run('tool.execute.before', input.tool, envelope, applyTool(output));
    },
    'tool.execute.after': async (input, output) => {
      const envelope = () => envelopeOf('tool.execute.after', { input, output }, directory);
      await run('tool.execute.after', input.tool, envelope, applyTool(output));
    },
    event: async ({ event }) => {
      if (event.type === 'session.created') {
        const info = event.properties?.info ?? {};
        /** @type {{ system: string[], started: Promise<void> | undefined, parentID: unknown }} */
        const known = { system: [], started: undefined, parentID: info.parentID };
        sessions.set(info.id, known);
        const envelope = () => envelopeOf('session.created', { event }, directory);
        known.started = run('session.created', undefined, envelope, (answer) => {
          if (answer.system !== undefined) known.system.push(answer.system);
        }).catch((error) => log([error.message]));
        await known.started;
      } else if (event.type === 'session.idle') {
        const id = event.properties?.sessionID;
        const parentID = sessions.get(id)?.parentID;
        const envelope = () => envelopeOf('session.idle', { event, parentID }, directory);
        await run('session.idle', undefined, envelope, () => {}).catch((error) => log([error.message]));
      }
    },
    'experimental.chat.system.transform': async (input, output) => {
      const known = sessions.get(input.sessionID);
      if (!known) return;
      await known.started;
      output.system.push(...known.system);
    },
  };
};

// `hooks simulate` of a call OpenCode was recorded making: the envelope of `recorded` when it is
// OpenCode's hook arguments (`{ input, output }` of a tool hook, or a session event object), else
// undefined. A property, not an export: OpenCode calls every function the module exports as a plugin.
AgentBundle.recordedEnvelope = (native, recorded, directory) => {
  if (recorded.input !== undefined && recorded.output !== undefined) return envelopeOf(native, recorded, directory);
  if (typeof recorded.type === 'string' && recorded.properties !== undefined) {
    return envelopeOf(native, { event: recorded }, directory);
  }
  return undefined;
};
