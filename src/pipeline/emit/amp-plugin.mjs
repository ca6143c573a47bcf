// The agent-bundle plugin for Amp, written into the artifact's amp/ folder (as index.js) by `cargo
// agent-bundle build`. Do not edit: the next build rewrites this file.
//
// Amp loads a plugin folder's index.js into its plugin runtime (a long-lived Bun process of its own,
// shared by every thread) and calls its default export with its plugin API. For each event a hook
// takes, this module makes the envelope its hook document's entries expect (the event, with
// `hookEvent`, the thread's id as `sessionId` and the workspace as `cwd`), and has the shared runtime
// run them (`inProcessHooks`: hooks.json beside this file, each hook's wrapper module decided through
// the runtime's decideInProcess, the same validation, handler call, result checks and projection as
// every wrapper process). Then it answers the way Amp's plugin API takes an answer:
//   - `block` (tool.call): `{ action: 'reject-and-continue', message }`: the tool does not run, and
//     the agent goes on with the message;
//   - `args` (tool.call): `{ action: 'modify', input }`, the input the tool runs with; a later hook
//     of the call sees it;
//   - `appendOutput` (tool.result): the result Amp sends the model instead of the tool's, with the
//     context added (a text output gains a paragraph, a list of content blocks a text block, any
//     other output an `additionalContext` key);
//   - `system` (session.start), `context` (agent.start): added after the user's prompt (agent.start's
//     `message`); a session.start context waits for the thread's next prompt;
//   - `followUp` (agent.end): `{ action: 'continue', userMessage }`, which starts another turn with
//     the reason; the turn it starts ends with `stopHookActive: true` for the hooks;
//   - a decision with the blocking code (a fail-closed hook that failed, a guard part Amp has no
//     channel for): a rejection too, since what Amp does with a handler that throws is not
//     documented; any other failure is logged and the call goes on (the hook fails open).
// An entry marked `async` is started and not waited for: it runs in Amp's plugin runtime, which
// lives on across threads.

import { fileURLToPath } from 'node:url';
import { inProcessHooks } from './hooks/agent-bundle-runtime.mjs';

// The workspace a handler's context tells (a URI, or a path), else the plugin runtime's own folder.
function workspaceOf(ctx) {
  const root = ctx?.system?.workspaceRoot;
  const text = root === undefined || root === null ? '' : String(root);
  if (text.startsWith('file:')) return fileURLToPath(text);
  return text.startsWith('/') || /^[A-Za-z]:[\\/]/.test(text) ? text : process.cwd();
}

// The envelope of one event's call: the event as Amp gave it, with the name of its event, the
// thread as the session and the workspace (`cwd`), and what the module adds (agent.end:
// `stopHookActive`; a failed call's tool.result: `error`, never absent).
function envelopeOf(native, event, cwd, added = {}) {
  const failed = native === 'tool.result' && event.status === 'error';
  const error = failed ? { error: event.error ?? (typeof event.output === 'string' ? event.output : '') } : {};
  return { ...event, ...error, ...added, hookEvent: native, sessionId: event.thread?.id, cwd };
}

// The result Amp sends the model instead of `output`, with `added` (context texts) in it.
function withContext(output, added) {
  const text = added.join('\n\n');
  if (output === undefined || output === null || output === '') return text;
  if (typeof output === 'string') return `${output}\n\n${text}`;
  if (Array.isArray(output)) return [...output, { type: 'text', text }];
  if (typeof output === 'object') return { ...output, additionalContext: text };
  return `${JSON.stringify(output)}\n\n${text}`;
}

export const AgentBundle = async (amp) => {
  const { run, log, takes } = inProcessHooks(import.meta.url);
  // Per thread: the contexts session.start hooks gave, for its next prompt, and the message of the
  // turn a stop hook's follow-up started.
  const waiting = new Map();
  const continued = new Map();

  if (takes('session.start')) {
    amp.on('session.start', async (event, ctx) => {
      const contexts = [];
      await run('session.start', undefined, () => envelopeOf('session.start', event, workspaceOf(ctx)), (answer) => {
        if (answer.system !== undefined) contexts.push(answer.system);
      }).catch((error) => log([error.message]));
      if (contexts.length > 0) waiting.set(event.thread?.id, [...(waiting.get(event.thread?.id) ?? []), ...contexts]);
    });
  }
  if (takes('session.start') || takes('agent.start')) {
    amp.on('agent.start', async (event, ctx) => {
      const contexts = waiting.get(event.thread?.id) ?? [];
      waiting.delete(event.thread?.id);
      if (takes('agent.start')) {
        await run('agent.start', undefined, () => envelopeOf('agent.start', event, workspaceOf(ctx)), (answer) => {
          if (answer.context !== undefined) contexts.push(answer.context);
        }).catch((error) => log([error.message]));
      }
      return contexts.length === 0 ? {} : { message: { content: contexts.join('\n\n') } };
    });
  }
  if (takes('tool.call')) {
    amp.on('tool.call', async (event, ctx) => {
      let reject;
      let input;
      try {
        const current = () => (input === undefined ? event : { ...event, input });
        await run('tool.call', event.tool, () => envelopeOf('tool.call', current(), workspaceOf(ctx)), (answer) => {
          if (answer.block !== undefined) reject ??= answer.block;
          if (answer.args !== undefined) input = answer.args;
        });
      } catch (error) {
        return { action: 'reject-and-continue', message: error.message };
      }
      if (reject !== undefined) return { action: 'reject-and-continue', message: reject };
      return input === undefined ? { action: 'allow' } : { action: 'modify', input };
    });
  }
  if (takes('tool.result')) {
    amp.on('tool.result', async (event, ctx) => {
      const added = [];
      await run('tool.result', event.tool, () => envelopeOf('tool.result', event, workspaceOf(ctx)), (answer) => {
        if (answer.appendOutput !== undefined) added.push(answer.appendOutput);
      }).catch((error) => log([error.message]));
      if (added.length === 0) return undefined;
      const kept = event.error === undefined ? {} : { error: event.error };
      return { status: event.status, ...kept, output: withContext(event.output, added) };
    });
  }
  if (takes('agent.end')) {
    amp.on('agent.end', async (event, ctx) => {
      const thread = event.thread?.id;
      const stopHookActive = continued.has(thread) && continued.get(thread) === event.message;
      const followUps = [];
      await run('agent.end', undefined, () => envelopeOf('agent.end', event, workspaceOf(ctx), { stopHookActive }), (answer) => {
        if (answer.followUp !== undefined) followUps.push(answer.followUp);
      }).catch((error) => log([error.message]));
      if (followUps.length === 0) {
        continued.delete(thread);
        return undefined;
      }
      const userMessage = followUps.join('\n\n');
      continued.set(thread, userMessage);
      return { action: 'continue', userMessage };
    });
  }
};

export default AgentBundle;

// `hooks simulate` of a call in the shape Amp's plugin API hands a handler: the envelope of
// `recorded` when it is `{ hookEvent, event, workspaceRoot? }`, else undefined.
AgentBundle.recordedEnvelope = (native, recorded, directory) => {
  if (typeof recorded.hookEvent !== 'string' || typeof recorded.event?.thread !== 'object') return undefined;
  const added = recorded.hookEvent === 'agent.end' ? { stopHookActive: false } : {};
  return envelopeOf(recorded.hookEvent, recorded.event, recorded.workspaceRoot ?? directory, added);
};
