// The agent-bundle hook runtime's core: the decision of a hook, apart from any process. Written by
// `cargo agent-bundle build`; do not edit: the next build rewrites this file. It is the first part of
// every artifact's hooks/agent-bundle-runtime.mjs, where Node's process shell (runtime.mjs in
// agent-bundle's sources) follows it in the same file, and, alone, the runtime of a host that runs
// hooks in a worker without Node (Claude Code's hooks modules). So it is plain ECMAScript: no import,
// no Node global, no timer of its own; what it needs of its host it asks of `services`
// (installServices), which Node's shell fills in.
//
// What it decides, in order: parse exactly one JSON object (the envelope, within the hook's
// maxInputBytes, which the build decided: an envelope over it is a failure of the hook, so a
// fail-closed guard blocks; a wrapper's shell counts stdin, decideInProcess the envelope it is
// given); check `hook_event_name` and every envelope field the host contract lists; decode the
// envelope into the canonical payload; call the handler's default export with deep-frozen copies;
// copy its result once into plain data (no getter, Proxy or prototype survives) and check that copy
// against the envelope as it was before the handler ran; answer with the host's own answer,
// projected from the same copy. A part of a legal result the host has no channel for is dropped
// with one note for stderr (the rest, a denial above all, is still delivered); a denial, an ask or
// a rewrite the host has no channel for blocks the call through the host's blocking exit instead of
// being lost. Any failure is one line for stderr, nothing for stdout, and exit code 1, which every
// host treats as a non-blocking error, or, for a fail-closed hook, the host's blocking code (2), so
// the tool call is refused.
//
// An event route's wrapper (its contract has `hook.route`) calls the route component with the
// canonical props instead, renders the element tree it returns (<Agent.Result>, <Agent.Context>, the
// route's own components) into a result, and answers through the very same checks and projection
// (D13): what the family makes illegal fails the route, the rest is decided per part as above.

const RESULT_KEYS = ['outcome', 'reason', 'additionalContext', 'updatedInput', 'extra'];
const OUTCOMES = ['continue', 'allow', 'ask', 'deny'];

const TYPE_WORDS = {
  'string': 'a string',
  'string|null': 'a string or null',
  'boolean': 'a boolean',
  'number': 'a number',
  'object': 'an object',
  'string[]': 'an array of strings',
  'enum': 'a known value',
  'any': 'a JSON value',
};

// The longest delay Node's timers hold; a longer one fires after 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

class HookError extends Error {}

// ---------------------------------------------------------------------------------------------
// What the core asks of its host. Every member is a function (or absent, for `after`); objects
// without a prototype, so that nothing a handler adds to Object.prototype is taken for a service.
const DEFAULT_SERVICES = Object.freeze({
  __proto__: null,
  // A variable of the hook's environment, a string or undefined (a foreign sender's `presentEnv`).
  env: () => undefined,
  // Whether a value is a Proxy, which a result may not hold (a host that cannot tell says no: the
  // result is still copied once, and only the copy is checked and answered).
  isProxy: () => false,
  // The parsed source map of a handler's bundle (`file` as a stack frame names it: a path or a
  // file:// URL), or null; asked once per file, only when a handler fails.
  sourceMap: () => null,
  // The SHA-256 of a string's UTF-8 bytes, in hex (a route's idempotency key, when first read).
  sha256Hex: () => {
    throw new Error('no SHA-256 is available in this environment');
  },
  // `after(ms, fn)`: calls fn once after ms milliseconds, and returns a function that cancels it.
  after: undefined,
  // The folder the hook runs from (the host's plugin folder, where its payloads lie), or undefined
  // where there is no file system.
  pluginRoot: () => undefined,
  // `dataDir(own, plugin)`: the plugin's persistent data folder, created when missing: `own` (the
  // host's, from its variable) when it names one, else agent-bundle's default for `plugin`.
  dataDir: () => {
    throw new Error('there is no file system here, so no data folder');
  },
  // `appendFile(path, text)`: appends text to a file (an `env` answer's session file).
  appendFile: () => {
    throw new Error('there is no file system here');
  },
});

let services = { __proto__: null, ...DEFAULT_SERVICES };

// Installs the host's services: `partial`'s members over the defaults (each call starts again from
// the defaults; an undefined member keeps the default).
export function installServices(partial) {
  const next = { __proto__: null, ...DEFAULT_SERVICES };
  for (const [name, service] of Object.entries(partial ?? {})) {
    if (!Object.hasOwn(DEFAULT_SERVICES, name)) {
      throw new TypeError(`installServices: there is no service ${JSON.stringify(name)}`);
    }
    if (service === undefined) continue;
    if (typeof service !== 'function') {
      throw new TypeError(`installServices: the service ${name} must be a function, got ${typeof service}`);
    }
    next[name] = service;
  }
  services = next;
}

// The decision, apart from the process: stdin's bytes and the handler in, the exit code, the lines
// for stderr and the answer for stdout (undefined: nothing to say) out. It never throws and touches
// no process state, so tests can run every host, event and result shape through it in one process.
// `startedAt`: when the delivery began on this process's performance clock, from which a route's
// budget counts (0, the process's start, in a wrapper; the request's arrival in the shared runtime).
// `timer`: a host's clock for the route's budget (decideInProcess's), else AbortSignal.timeout's.
export async function decide(contract, stdinBytes, loadHandler, startedAt = 0, timer = undefined) {
  contract = ownData(contract);
  try {
    const envelope = parseEnvelope(stdinBytes);
    const foreign = foreignSender(contract, envelope);
    if (foreign !== undefined) {
      return { code: 0, stderr: [foreignLine(contract, foreign)], stdout: undefined };
    }
    const payload = decodeEnvelope(contract, envelope);
    // The host fires this native event where the canonical one does not happen (a subagent's turn
    // ending, for a main-agent stop hook): nothing to decide.
    if (passes(contract, envelope)) {
      return { code: 0, stderr: [], stdout: undefined };
    }
    return answerFor(contract, await checkedResult(contract, envelope, payload, loadHandler, startedAt, timer));
  } catch (error) {
    return failed(contract, error);
  }
}

// The checked result of one delivery, for a validated envelope and its payload: the handler's or the
// route's, checked against the contract. Throws a HookError saying what is wrong. The shared runtime
// calls it for a request, and sends the result back: the wrapper checks and projects it itself.
export async function checkedResult(contract, envelope, payload, loadHandler, startedAt = 0, timer = undefined) {
  const handler = await loadDefaultExport(contract, loadHandler);
  let result;
  if (contract.hook.route) {
    result = await renderRoute(contract, envelope, payload, handler, startedAt, timer);
  } else {
    try {
      result = await handler(deepFreeze(armTool(structuredClone(payload), false)), Object.freeze(withPlaces({
        target: contract.hook.target,
        nativeEvent: contract.hook.nativeEvent,
        nativeInput: deepFrozenCopy(envelope),
        mcpToolName: (server, tool) => mcpToolName(contract, server, tool),
      }, contract, envelope)));
    } catch (error) {
      throw new HookError(`the handler threw: ${describeError(error)}${whereThrown(error)}`);
    }
  }
  // From here on only this copy is read: the checks and the projection see the same plain data.
  return checkResult(contract, envelope, resultSnapshot(result, `the ${author(contract)}'s result`));
}

// The plugin's places on a handler's context or a route's props (`fields` gains them): `pluginRoot`
// (the host folder the hook runs from), `projectDir` (the session's project: the host's variable for
// it, else the envelope's key, per the host table) and `dataDir` (the plugin's persistent folder: the
// host's own where its variable names one, else agent-bundle's default; made when first read, so a
// hook that never reads it touches no disk).
function withPlaces(fields, contract, envelope) {
  const places = contract.places ?? {};
  const set = (value) => typeof value === 'string' && value !== '';
  let projectDir = (places.projectEnv ?? []).map((name) => services.env(name)).find(set);
  for (const key of projectDir === undefined ? places.projectKeys ?? [] : []) {
    const value = own(envelope, key);
    projectDir = Array.isArray(value) ? value[0] : value;
    if (set(projectDir)) break;
    projectDir = undefined;
  }
  fields.pluginRoot = services.pluginRoot();
  fields.projectDir = projectDir;
  let dataDir;
  Object.defineProperty(fields, 'dataDir', {
    __proto__: null,
    enumerable: true,
    get: () => (dataDir ??= services.dataDir((places.dataEnv ?? []).map((name) => services.env(name)).find(set), places.plugin)),
  });
  return fields;
}

// The answer for a checked result: the host's own, with a note for each dropped part, or the
// blocking exit when a guard part has no channel here.
function answerFor(contract, checked) {
  const blocked = blockedPart(contract, checked);
  if (blocked) {
    return { code: blocked.exit, stderr: [blockLine(contract, blocked, checked)], stdout: undefined };
  }
  const output = project(contract, checked);
  const notes = dropped(contract, checked);
  writeEnvFiles(contract, checked, notes);
  return { code: 0, stderr: notes.length === 0 ? [] : [noteLine(contract, notes, checked, output)], stdout: output };
}

function failed(contract, error) {
  return { code: contract.hook.failClosed?.exit ?? 1, stderr: [failureLine(contract, failureMessage(error))], stdout: undefined };
}

export function failureMessage(error) {
  return error instanceof HookError ? error.message : `internal error: ${describeError(error)}`;
}

// Another host running this host's hook document (VS Code's agent runs Claude Code's): the table
// names the keys its envelopes always have and this host's never lack. Such an envelope is not
// this host's, so the hook has nothing to decide there; it passes, saying so, instead of failing
// on fields that host never sends.
// An envelope that names an event names this wrapper's (a malformed one is failed, not passed), and
// a sender told apart by a missing key alone is also told by the variables it sets for its hooks.
function foreignSender(contract, envelope) {
  const found = (contract.foreignEnvelopes ?? []).find((f) =>
    f.present.every((k) => Object.hasOwn(envelope, k)) && f.absent.every((k) => !Object.hasOwn(envelope, k))
    && (!f.present.includes(eventNameKey(contract)) || envelope[eventNameKey(contract)] === contract.hook.nativeEvent)
    && (f.presentEnv ?? []).every((name) => {
      const value = services.env(name);
      return typeof value === 'string' && value !== '';
    }));
  return found?.sender;
}

function foreignLine(contract, sender) {
  const { name, target, nativeEvent } = contract.hook;
  return `Agent Bundle hook note: ${name} (${target} ${nativeEvent}): passed through an envelope from ${sender}, which runs this host's hook files with fields of its own; the hook did not run (it runs on the hosts the bundle is built for)`.replace(/\s*\n\s*/g, ' ');
}

// The field naming the event, where the host sends one (null: it does not, and the document routed it).
function eventNameKey(contract) {
  return contract.eventNameKey === undefined ? 'hook_event_name' : contract.eventNameKey;
}

function passes(contract, envelope) {
  return Boolean(contract.passWhenPresent) && Object.hasOwn(envelope, contract.passWhenPresent);
}

// The envelope as the shared runtime receives it (already parsed by the wrapper): checked and
// decoded as a wrapper does. Throws a HookError.
export function decodeRequest(contract, envelope) {
  if (!isPlainObject(envelope)) {
    throw new HookError(`the envelope must be a JSON object, got ${kindOf(envelope)}`);
  }
  return decodeEnvelope(contract, envelope);
}

// ---------------------------------------------------------------------------------------------
// In-process hosts (OpenCode, and Claude Code's hooks modules, which load this core alone): no
// process per call. The host loads agent-bundle's entry module, which hands each delivery's envelope
// (an object it made of the host's hook arguments) and the hook's wrapper module (its contract and
// handler loader) here. The decision is decide()'s, taken within the hook's stdin limit and deadline
// as a wrapper process takes it; the entry module applies the answer. `timer` (optional, the shape of
// services.after: `(ms, fn) => cancel`) keeps the deadline, and a route's budget, on a clock of the
// host's (Claude Code's hooks module passes one on its engine's clock); without it the deadline is
// kept with services.after. Where neither exists, the decision runs without a deadline of its own:
// the host's own limit on the hook is then the only one.
export async function decideInProcess(contract, envelope, loadHandler, timer) {
  contract = ownData(contract);
  const startedAt = performance.now();
  let bytes;
  try {
    bytes = new TextEncoder().encode(JSON.stringify(envelope) ?? '');
  } catch (error) {
    return failed(contract, new HookError(`the host's arguments cannot be read as JSON: ${describeError(error)}`));
  }
  const limit = contract.hook.maxInputBytes;
  if (bytes.length > limit) {
    return failed(contract, new HookError(`the envelope is ${bytes.length} bytes, more than this hook's limit of ${limit} bytes (maxInputBytes), so it is too large to judge`));
  }
  const after = timer ?? services.after;
  let cancel;
  const late = after === undefined ? undefined : new Promise((resolve) => {
    cancel = after(
      Math.min(MAX_TIMER_MS, contract.hook.deadlineMs),
      () => resolve(failed(contract, new HookError(`the ${author(contract)} did not finish within ${contract.hook.deadlineMs} ms of the hook's start (its timeout)`))),
    );
  });
  try {
    const decision = decide(contract, bytes, loadHandler, startedAt, timer);
    return await (late === undefined ? decision : Promise.race([decision, late]));
  } finally {
    if (typeof cancel === 'function') cancel();
  }
}

// The one stderr line of a failure (a hooks module's helpers word the failures they catch with it).
export function failureLine(contract, message) {
  const { name, target, nativeEvent, failClosed } = contract.hook;
  const blocked = failClosed ? '; the hook is fail-closed, so the tool call is blocked' : '';
  return `Agent Bundle hook error: ${name} (${target} ${nativeEvent}): ${message}${blocked}`.replace(/\s*\n\s*/g, ' ');
}

function noteLine(contract, notes, result, output) {
  const { name, target, nativeEvent } = contract.hook;
  const kept = result.outcome === 'deny'
    ? 'the denial was delivered'
    : output === undefined ? 'nothing else to deliver, the hook continues' : 'the rest of the result was delivered';
  return `Agent Bundle hook note: ${name} (${target} ${nativeEvent}): dropped ${notes.join('; ')}; ${kept}`.replace(/\s*\n\s*/g, ' ');
}

function deepFrozenCopy(value) {
  return deepFreeze(structuredClone(value));
}

function deepFreeze(value) {
  if (value !== null && typeof value === 'object') {
    // Data properties only: an armed tool field (armTool) is an accessor, and reading it throws.
    for (const property of Object.values(Object.getOwnPropertyDescriptors(value))) {
      if (Object.hasOwn(property, 'value')) deepFreeze(property.value);
    }
    Object.freeze(value);
  }
  return value;
}

function parseEnvelope(bytes) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HookError('stdin is not UTF-8 text');
  }
  if (text.trim() === '') {
    throw new HookError('stdin is empty; expected exactly one JSON object');
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HookError(`stdin is not exactly one JSON value: ${error.message}`);
  }
  if (!isPlainObject(value)) {
    throw new HookError(`stdin must be a JSON object, got ${kindOf(value)}`);
  }
  return value;
}

function decodeEnvelope(contract, envelope) {
  const expected = contract.hook.nativeEvent;
  const nameKey = eventNameKey(contract);
  if (nameKey !== null && own(envelope, nameKey) !== expected) {
    throw new HookError(`${nameKey} must equal ${JSON.stringify(expected)}, got ${show(own(envelope, nameKey))}`);
  }
  const payload = {};
  for (const field of contract.input) {
    const key = [field.key, ...(field.alternatives ?? [])].find((k) => Object.hasOwn(envelope, k));
    if (key === undefined) {
      if (field.required) {
        const names = [field.key, ...(field.alternatives ?? [])].join(' or ');
        throw new HookError(`the envelope has no ${names} (${TYPE_WORDS[field.type] ?? field.type}), which ${contract.host} always sends on ${expected}`);
      }
      continue;
    }
    const value = envelope[key];
    checkField(field, key, value);
    if (field.as) {
      const decoded = decodeField(field, key, value, contract.hook.route !== undefined);
      if (decoded !== undefined) {
        // A route's payload field says which native key it came from.
        payload[field.as] = contract.hook.route ? { value: decoded, nativeKey: key } : decoded;
      }
    }
  }
  // A canonical field's old name, kept for one release (config handlers only).
  for (const [old, canonical] of Object.entries(contract.aliases ?? {})) {
    if (Object.hasOwn(payload, canonical)) payload[old] = payload[canonical];
  }
  if (contract.tools !== undefined) {
    const found = canonicalTool(contract, envelope);
    if (found !== undefined) {
      payload.tool = contract.hook.route ? { value: found.tool, nativeKey: found.nameKey } : found.tool;
    }
  }
  return payload;
}

// ---------------------------------------------------------------------------------------------
// The canonical tool of a tool event: which kind of tool the host's name is (the host table's
// selector alternatives, the same data the matchers come from, plain names tried before patterns),
// and the fields a guard needs under one name on every host, each with the native key it was read
// from in `nativeKeys`. The native input stays in the payload untouched. A field the table maps and
// the input lacks (or holds as something else) is recorded in `unreadable`, and the copy a handler
// gets reads it as a throw (armTool): a hook that judges the field fails with its policy, a guard is
// never handed a call it cannot judge, and a hook that never looks is not sunk by it.

function canonicalTool(contract, envelope) {
  const present = (as) => {
    const field = contract.input.find((f) => f.as === as);
    return field && [field.key, ...(field.alternatives ?? [])].find((k) => Object.hasOwn(envelope, k));
  };
  const nameKey = present('toolName');
  const name = nameKey === undefined ? undefined : envelope[nameKey];
  if (typeof name !== 'string') return undefined;
  const inputKey = present('toolInput');
  const identity = contract.tools.find((t) => new RegExp(`^(?:${t.pattern})$`).test(name));
  const tool = { kind: identity ? identity.kind : 'other', name, nativeKeys: { name: nameKey } };
  if (identity === undefined) return { tool, nameKey };
  const map = identity.input;
  const unreadable = {};
  let input = inputKey === undefined ? undefined : envelope[inputKey];
  // Copilot CLI's older releases send the arguments as JSON text.
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      // judged below, as any input that is not an object
    }
  }
  const object = isPlainObject(input);
  const optional = new Set(['cwd', 'content', ...(map.optional ?? [])]);
  const take = (field) => {
    const keys = typeof map[field] === 'string' ? [map[field]] : map[field];
    if (keys === undefined) return undefined;
    if (!object) {
      if (!optional.has(field)) {
        unreadable[field] = `${name}'s input (${inputKey ?? 'absent'}) is not an object (got ${show(input)}), so its ${field} is not known`;
      }
      return undefined;
    }
    const key = keys.find((k) => Object.hasOwn(input, k));
    if (key === undefined) {
      if (!optional.has(field)) {
        unreadable[field] = `${contract.host} sent ${name} without ${keys.join(' or ')} in ${inputKey}, so its ${field} is not known`;
      }
      return undefined;
    }
    if (typeof input[key] !== 'string') {
      unreadable[field] = `${inputKey}.${key} of ${name} is not a string (got ${show(input[key])}), so its ${field} is not known`;
      return undefined;
    }
    tool.nativeKeys[field] = `${inputKey}.${key}`;
    return input[key];
  };
  switch (identity.kind) {
    case 'shell': {
      tool.command = take('command');
      const cwd = take('cwd');
      if (cwd !== undefined) tool.cwd = cwd;
      break;
    }
    case 'file.read':
    case 'file.write': {
      const filePath = take('filePath');
      tool.filePaths = filePath === undefined ? [] : [filePath];
      if (unreadable.filePath !== undefined) unreadable.filePaths = unreadable.filePath;
      const content = take('content');
      if (content !== undefined) tool.content = content;
      if (map.edits !== undefined && object) {
        const edits = fileEdits(map.edits, input, inputKey, name, filePath);
        if (typeof edits === 'string') {
          unreadable.edits = edits;
        } else if (edits !== undefined) {
          tool.edits = edits;
          tool.nativeKeys.edits = `${inputKey}${map.edits.list ? `.${map.edits.list}` : ''}`;
        }
      }
      if (map.patch !== undefined) {
        const patch = take('patch');
        const parsed = patch === undefined ? undefined : parsePatch(patch);
        if (parsed !== undefined && parsed.files.length > 0) {
          tool.patch = patch;
          tool.filePaths = parsed.files;
          tool.edits = parsed.edits;
          tool.nativeKeys.filePaths = tool.nativeKeys.patch;
          if (parsed.content !== undefined) tool.content = parsed.content;
        } else {
          const why = unreadable.patch ?? `the patch of ${name} names no file (no "*** Add File:", "*** Update File:" or "*** Delete File:" line), so the files it writes are not known`;
          Object.assign(unreadable, { filePaths: why, filePath: why, edits: why });
        }
      }
      if (tool.filePaths.length > 0) tool.filePath = tool.filePaths[0];
      break;
    }
    case 'mcp': {
      const context = map.mcpContext && own(envelope, map.mcpContext.key);
      const server = isPlainObject(context) ? own(context, map.mcpContext.server) : undefined;
      const named = isPlainObject(context) ? own(context, map.mcpContext.tool) : undefined;
      if (typeof server === 'string' && typeof named === 'string') {
        tool.server = server;
        tool.tool = named;
        tool.nativeKeys.server = `${map.mcpContext.key}.${map.mcpContext.server}`;
        tool.nativeKeys.tool = `${map.mcpContext.key}.${map.mcpContext.tool}`;
      } else {
        const groups = new RegExp(map.mcpName).exec(name)?.groups ?? {};
        if (groups.server !== undefined) tool.server = groups.server;
        if (groups.tool !== undefined) tool.tool = groups.tool;
      }
      // One of the plugin's own servers (`mcpServers`), whatever the host calls its tools.
      for (const [ownServer, { match }] of Object.entries(contract.pluginMcp ?? {})) {
        const groups = new RegExp(match).exec(name)?.groups;
        if (groups?.tool !== undefined) {
          tool.ownServer = ownServer;
          tool.tool = groups.tool;
          break;
        }
      }
      tool.arguments = object ? input : {};
      if (inputKey !== undefined) tool.nativeKeys.arguments = inputKey;
      break;
    }
    default:
      break;
  }
  for (const field of Object.keys(unreadable)) delete tool[field];
  if (Object.keys(unreadable).length > 0) tool[UNREADABLE] = unreadable;
  return { tool, nameKey, identity, inputKey, input: object ? input : undefined };
}

// The host's name for tool `tool` of the plugin's own MCP server `server` (an `mcpServers` name), or
// undefined where that server is not placed.
function mcpToolName(contract, server, tool) {
  const own = contract.pluginMcp;
  if (typeof server !== 'string' || typeof tool !== 'string' || !own || !Object.hasOwn(own, server)) return undefined;
  return own[server].name.split('{tool}').join(tool);
}

// A rewrite may be given in canonical words: a key that is one of the canonical tool's fields and
// not one of the tool's own keys is written under the native key the host uses for it (`filePath`
// as Claude's `file_path`, Copilot's `path`; `patch` as Codex's `command`; `cwd` as Gemini's
// `dir_path`); for an MCP tool, `arguments` is the whole new input. The tool's own keys pass as they
// are. A canonical field the host's tool has no key for, or one that is read from a call and never
// written (`filePaths`, `edits`), fails the hook: a rewrite is never half-applied.
const WRITABLE_TOOL_FIELDS = { shell: ['command', 'cwd'], 'file.read': ['filePath'], 'file.write': ['filePath', 'content', 'patch'] };
const CANONICAL_INPUT_FIELDS = ['command', 'cwd', 'filePath', 'filePaths', 'content', 'edits', 'patch'];

function nativeRewrite(contract, envelope, updated) {
  const found = contract.tools === undefined ? undefined : canonicalTool(contract, envelope);
  if (found?.identity === undefined) return updated;
  const { tool, identity, inputKey, input } = found;
  const map = identity.input;
  const keysOf = (spec) => (spec === undefined ? [] : typeof spec === 'string' ? [spec] : spec);
  if (tool.kind === 'mcp') {
    if (!Object.hasOwn(updated, 'arguments') || Object.hasOwn(input ?? {}, 'arguments')) return updated;
    if (Object.keys(updated).length !== 1 || !isPlainObject(updated.arguments)) {
      throw new HookError('updatedInput.arguments is the whole new input of an MCP tool: give it alone, as an object');
    }
    return updated.arguments;
  }
  const native = new Set([
    ...Object.keys(input ?? {}),
    ...Object.entries(map).flatMap(([field, spec]) => {
      if (field === 'edits') return [spec.list, spec.oldText, spec.newText].filter((k) => k !== undefined);
      return field === 'optional' ? [] : keysOf(spec);
    }),
  ]);
  const writable = WRITABLE_TOOL_FIELDS[tool.kind] ?? [];
  const rewritten = {};
  for (const [key, value] of Object.entries(updated)) {
    if (native.has(key) || !CANONICAL_INPUT_FIELDS.includes(key)) {
      rewritten[key] = value;
      continue;
    }
    if (!writable.includes(key)) {
      throw new HookError(`updatedInput.${key} cannot be written: a ${tool.kind} tool's ${key} is read from the call, never rewritten`);
    }
    if (map[key] === undefined) {
      throw new HookError(`updatedInput.${key} cannot be written: ${contract.host}'s ${tool.name} takes no ${key}`);
    }
    const from = tool.nativeKeys[key];
    const target = from !== undefined && from.startsWith(`${inputKey}.`) ? from.slice(inputKey.length + 1) : keysOf(map[key])[0];
    if (Object.hasOwn(updated, target)) {
      throw new HookError(`updatedInput gives both ${key} and ${target}, the same field of ${tool.name} on ${contract.host}`);
    }
    rewritten[target] = value;
  }
  return rewritten;
}

// Where a decoded tool keeps its unreadable fields until armTool turns them into throws (a plain
// key, so the record survives the structured clone of the payload).
const UNREADABLE = '__agentBundleUnreadable';

// In the copy of the payload a handler or route gets (before it is frozen): each unreadable field
// of the tool becomes a property whose read fails the hook, saying why.
function armTool(payload, route) {
  const tool = route ? payload.tool?.value : payload.tool;
  const unreadable = tool?.[UNREADABLE];
  if (unreadable === undefined) return payload;
  delete tool[UNREADABLE];
  for (const [field, why] of Object.entries(unreadable)) {
    Object.defineProperty(tool, field, {
      __proto__: null,
      // Enumerable, so that a copy (a spread, JSON.stringify) fails as a read does.
      enumerable: true,
      get() {
        throw new HookError(`tool.${field} cannot be read: ${why}`);
      },
    });
  }
  return payload;
}

// A file tool's replacements: the input itself is one (`old_string`/`new_string`), or each element
// of a list of them is (`edits`). A string: why they cannot be read.
function fileEdits(map, input, inputKey, name, filePath) {
  const one = (edit, where) => {
    const oldText = own(edit, map.oldText);
    const newText = own(edit, map.newText);
    if (oldText === undefined && newText === undefined) return undefined;
    if (typeof oldText !== 'string' || typeof newText !== 'string') {
      return `${where} of ${name} does not hold ${map.oldText} and ${map.newText} as strings`;
    }
    return { filePath, oldText, newText };
  };
  if (map.list === undefined) {
    const edit = one(input, inputKey);
    return typeof edit === 'string' ? edit : edit && [edit];
  }
  const list = own(input, map.list);
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || !list.every(isPlainObject)) {
    return `${inputKey}.${map.list} of ${name} is not an array of objects (got ${show(list)})`;
  }
  const edits = list.map((edit, i) => one(edit, `${inputKey}.${map.list}[${i}]`) ?? { filePath, oldText: '', newText: '' });
  return edits.find((edit) => typeof edit === 'string') ?? edits;
}

// The files a patch in the apply_patch format touches (added, updated, deleted, moved to), in
// order, with each hunk as an edit (context and removed lines the old text, context and added
// lines the new), and an added file's content when the patch adds exactly one file and nothing else.
function parsePatch(text) {
  const files = [];
  const edits = [];
  const added = [];
  let current;
  let hunk;
  const flush = () => {
    if (hunk !== undefined && (hunk.old.length > 0 || hunk.new.length > 0)) {
      edits.push({ filePath: current, oldText: hunk.old.join('\n'), newText: hunk.new.join('\n') });
    }
    hunk = undefined;
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim() === raw ? raw : raw.replace(/^\s+(?=\*\*\*)/, '');
    const header = /^\*\*\* (Add|Update|Delete) File:\s*(.+?)\s*$/.exec(line);
    const moved = /^\*\*\* Move to:\s*(.+?)\s*$/.exec(line);
    if (header !== null || moved !== null) {
      flush();
      const path = header !== null ? header[2] : moved[1];
      if (!files.includes(path)) files.push(path);
      if (header?.[1] === 'Add') added.push(path);
      if (header !== null) current = path;
      hunk = header?.[1] === 'Delete' ? undefined : { old: [], new: [] };
      continue;
    }
    if (line.startsWith('***')) {
      flush();
      continue;
    }
    if (line.startsWith('@@')) {
      flush();
      if (current !== undefined) hunk = { old: [], new: [] };
      continue;
    }
    if (hunk === undefined) continue;
    if (raw.startsWith('+')) {
      hunk.new.push(raw.slice(1));
    } else if (raw.startsWith('-')) {
      hunk.old.push(raw.slice(1));
    } else if (raw.startsWith(' ')) {
      hunk.old.push(raw.slice(1));
      hunk.new.push(raw.slice(1));
    }
  }
  flush();
  const content = added.length === 1 && files.length === 1 ? edits.find((e) => e.filePath === added[0])?.newText ?? '' : undefined;
  return { files, edits, content };
}

function checkField(field, key, value) {
  const ok = {
    'string': () => typeof value === 'string',
    'string|null': () => value === null || typeof value === 'string',
    'boolean': () => typeof value === 'boolean',
    'number': () => typeof value === 'number' && Number.isFinite(value),
    'object': () => isPlainObject(value),
    'string[]': () => Array.isArray(value) && value.every((item) => typeof item === 'string')
      && !(field.nonEmpty && value.length === 0),
    'enum': () => field.values.includes(value),
    'any': () => true,
  }[field.type];
  if (!ok()) {
    const wanted = field.type === 'enum'
      ? `one of ${field.values.map((v) => JSON.stringify(v)).join(', ')}`
      : field.nonEmpty ? 'a non-empty array of strings' : TYPE_WORDS[field.type];
    throw new HookError(`${key} must be ${wanted}, got ${show(value)}`);
  }
}

function decodeField(field, key, value, route) {
  switch (field.decode) {
    case 'positive':
      return value > 0;
    case 'json':
      try {
        return JSON.parse(value);
      } catch {
        // A route sees the text as the host sent it; a config handler's payload promises JSON.
        if (route) return value;
        throw new HookError(`${key} must hold JSON text, got ${show(value)}`);
      }
    default:
      return value;
  }
}

// What the author wrote, as messages name it.
function author(contract) {
  return contract.hook.route ? 'route' : 'handler';
}

async function loadDefaultExport(contract, loadHandler) {
  let module;
  try {
    module = await loadHandler();
  } catch (error) {
    throw new HookError(`the ${author(contract)} module could not be loaded: ${describeError(error)}${whereThrown(error)}`);
  }
  if (typeof module.default !== 'function') {
    throw new HookError(`the ${author(contract)} module's default export must be a function, got ${kindOf(module.default)}`);
  }
  return module.default;
}

// ---------------------------------------------------------------------------------------------
// Event routes (D12): the props a route component gets, and rendering what it returns.

const ELEMENT = Symbol.for('agent-bundle.element');
const FRAGMENT = Symbol.for('agent-bundle.fragment');
const RESULT_VALUE_KEYS = ['outcome', 'reason', 'updatedInput', 'extra'];
let sequence = 0;

async function renderRoute(contract, envelope, payload, component, startedAt, timer) {
  const { family, budgetMs } = contract.hook.route;
  const native = deepFrozenCopy(envelope);
  const canonical = {
    event: family,
    idempotencyKey: undefined,
    observedAt: new Date().toISOString(),
    sequence: (sequence += 1),
    provenance: {
      host: contract.hook.target,
      hostContractRevision: contract.revision,
      nativeEvent: contract.hook.nativeEvent,
      source: 'native',
    },
    payload: armTool(structuredClone(payload), true),
  };
  // Hashed when first read: Node's hash (node:crypto, loaded then) costs a route that never asks for
  // the key about 2 ms.
  let key;
  Object.defineProperty(canonical, 'idempotencyKey', {
    __proto__: null, // a descriptor reads `value` and `writable` through its prototype otherwise
    enumerable: true,
    get: () => (key ??= idempotencyKey(family, envelope, contract.hook.target)),
  });
  deepFreeze(canonical.provenance);
  deepFreeze(canonical.payload);
  Object.freeze(canonical);
  // Aborts when the route's budget (the plan's: its timeoutMs, else the shared default or the
  // wrapper's deadline) has run, counted from the delivery's start.
  const left = Math.max(1, Math.floor(budgetMs - (performance.now() - startedAt)));
  const budget = budgetSignal(left, timer);
  // And the route is stopped ROUTE_GRACE_MS later whatever it does (routeStop).
  const stop = routeStop(left + ROUTE_GRACE_MS, budgetMs, timer);
  const props = Object.freeze(withPlaces({ canonical, native, signal: budget.signal }, contract, envelope));
  const rendered = { value: undefined, results: 0, contexts: [] };
  try {
    const rendering = (async () => renderNode(await component(props), rendered, false))();
    if (stop !== undefined) {
      // What a stopped route still does is nobody's: its late failure is not a rejection left
      // unhandled in the process (an in-process host's own).
      rendering.catch(() => {});
      await Promise.race([rendering, stop.late]);
    } else {
      await rendering;
    }
  } catch (error) {
    if (error instanceof HookError) throw error;
    throw new HookError(`the route threw: ${describeError(error)}${whereThrown(error)}`);
  } finally {
    if (typeof budget.cancel === 'function') budget.cancel();
    if (typeof stop?.cancel === 'function') stop.cancel();
  }
  if (rendered.results === 0 && rendered.contexts.length === 0) {
    return undefined;
  }
  const value = rendered.value ?? {};
  const result = Object.assign(Object.create(null), value);
  if (rendered.contexts.length > 0) {
    result.additionalContext = rendered.contexts.join('');
  }
  return result;
}

// SHA-256 over the family, the envelope as received and the host: the same delivery gives the same
// key, another delivery another.
function idempotencyKey(family, envelope, target) {
  return services.sha256Hex(JSON.stringify({ event: family, native: envelope, target }));
}

// A signal that aborts after `ms`, as AbortSignal.timeout's does: on the host's `timer` when the host
// gave one, else AbortSignal.timeout's, else with services.after; where there is none of them, a
// signal that never aborts. `cancel` (when there is one) stops the timer once the route has answered.
function budgetSignal(ms, timer) {
  if (timer === undefined && typeof AbortSignal.timeout === 'function') {
    return { signal: AbortSignal.timeout(ms), cancel: undefined };
  }
  const controller = new AbortController();
  const after = timer ?? services.after;
  const cancel = after === undefined ? undefined : after(ms, () => controller.abort(timeoutError()));
  return { signal: controller.signal, cancel };
}

// How long a route may still answer after its signal aborted at its budget: a route that honours
// its signal answers then (a denial, a cleanup's result) and is heard.
const ROUTE_GRACE_MS = 100;

// A route's budget is kept whether or not it honours its signal: `ms` after its render began (its
// budget's rest, then the grace), a route that has not answered (it ignores the signal and awaits a
// long timer, a promise that never settles, a loop of awaits on timers or I/O) fails, so the wrapper,
// decideInProcess or the shared runtime answers for it with its failure policy, and what the route
// returns later is not read. { late: a promise that rejects then, cancel } on the host's `timer`,
// else services.after; undefined where there is neither (the host's own limit is then the only one).
// A route that blocks its thread (a synchronous loop, a loop awaiting only promises) keeps every
// timer from firing, this one and the wrapper's deadline: in a wrapper, a fail-closed route's
// watchdog thread ends such a loop (runtime.mjs, blockedRouteWatchdog); elsewhere only the host's
// own timeout does.
function routeStop(ms, budgetMs, timer) {
  const after = timer ?? services.after;
  if (after === undefined) return undefined;
  let cancel;
  const late = new Promise((_, reject) => {
    cancel = after(Math.min(MAX_TIMER_MS, ms), () => reject(new HookError(
      `the route did not answer within its budget of ${budgetMs} ms (its signal aborted then, and it had ${ROUTE_GRACE_MS} ms more to answer), so it was answered for with its failure policy`,
    )));
  });
  late.catch(() => {});
  return { late, cancel };
}

// The reason AbortSignal.timeout aborts with.
function timeoutError() {
  const message = 'The operation was aborted due to timeout';
  return typeof DOMException === 'function'
    ? new DOMException(message, 'TimeoutError')
    : Object.assign(new Error(message), { name: 'TimeoutError' });
}

async function renderNode(node, rendered, inContext) {
  node = await node;
  if (node === undefined || node === null || typeof node === 'boolean') return;
  if (Array.isArray(node)) {
    for (const child of node) await renderNode(child, rendered, inContext);
    return;
  }
  if (typeof node === 'string' || typeof node === 'number') {
    if (!inContext) {
      throw new HookError(`the route rendered the text ${show(String(node))} outside <Agent.Context>: no host receives it`);
    }
    rendered.contexts[rendered.contexts.length - 1] += String(node);
    return;
  }
  if (typeof node !== 'object' || own(node, '$$typeof') !== ELEMENT) {
    throw new HookError(`the route rendered ${kindOf(node)}, not an element: return <Agent.Result>, <Agent.Context> or nothing`);
  }
  // Own properties only: code that ran in this process may have polluted Object.prototype (a
  // `value` or `children` read through it would be rendered as the route's own).
  const type = own(node, 'type');
  const props = own(node, 'props') ?? {};
  const children = own(props, 'children');
  if (type === FRAGMENT) {
    await renderNode(children, rendered, inContext);
    return;
  }
  if (typeof type === 'function' && type[ELEMENT] !== undefined) {
    const name = type[ELEMENT];
    if (name === 'Result') {
      rendered.results += 1;
      if (rendered.results > 1) throw new HookError('the route rendered two <Agent.Result> elements; a hook has one result');
      rendered.value = checkResultValue(own(props, 'value'));
      await renderNode(children, rendered, inContext);
    } else if (name === 'Context') {
      if (inContext) {
        await renderNode(children, rendered, true);
      } else {
        rendered.contexts.push('');
        await renderNode(children, rendered, true);
      }
    } else {
      throw new HookError(`<Agent.${name}> reaches no host from an event route: routes answer with <Agent.Result> and <Agent.Context>`);
    }
    return;
  }
  if (typeof type === 'function') {
    await renderNode(type(props), rendered, inContext);
    return;
  }
  throw new HookError(`the route rendered <${String(type)}>, which is not an Agent element: routes answer with <Agent.Result> and <Agent.Context>`);
}

function checkResultValue(given) {
  const value = resultSnapshot(given, '<Agent.Result value>');
  if (value === undefined) return {};
  if (!isPlainObject(value)) {
    throw new HookError(`<Agent.Result value> must be a plain object with ${RESULT_VALUE_KEYS.join(', ')}, got ${show(value)}`);
  }
  for (const key of Object.keys(value)) {
    if (key === 'additionalContext') {
      throw new HookError('<Agent.Result value> has no additionalContext: render the text inside <Agent.Context> instead');
    }
    if (!RESULT_VALUE_KEYS.includes(key)) {
      throw new HookError(`<Agent.Result value> has unknown key ${JSON.stringify(key)}; allowed keys are ${RESULT_VALUE_KEYS.join(', ')}`);
    }
  }
  return value;
}

function checkResult(contract, envelope, result) {
  const where = `${contract.hook.event} on ${contract.host}`;
  if (result === undefined || result === null) {
    return checkedParts('continue');
  }
  if (!isPlainObject(result)) {
    throw new HookError(`the handler returned ${kindOf(result)}; expected nothing or a plain object with ${RESULT_KEYS.join(', ')}`);
  }
  for (const key of Object.keys(result)) {
    if (!RESULT_KEYS.includes(key)) {
      throw new HookError(`the result has unknown key ${JSON.stringify(key)}; allowed keys are ${RESULT_KEYS.join(', ')}`);
    }
  }
  const { reason, additionalContext, updatedInput } = result;
  const outcome = result.outcome ?? 'continue';
  if (outcome === 'stop') {
    throw new HookError('outcome "stop" is not supported: return "deny" with a reason to block, or "continue"');
  }
  if (!OUTCOMES.includes(outcome)) {
    throw new HookError(`outcome must be one of ${OUTCOMES.map((o) => JSON.stringify(o)).join(', ')}, got ${show(outcome)}`);
  }
  if (reason !== undefined && typeof reason !== 'string') {
    throw new HookError(`reason must be a string, got ${show(reason)}`);
  }
  if (outcome !== 'continue') {
    refuseIllegal(contract, where, outcome);
  }
  if (outcome === 'deny') {
    if (reason === undefined || reason.trim() === '') {
      throw new HookError('a denial needs a non-empty reason: the host shows it to the model');
    }
    const when = contract.denyWhen;
    if (when && own(envelope, when.key) !== when.equals) {
      throw new HookError(`${where} honours a denial only when ${when.key} is ${JSON.stringify(when.equals)}, got ${show(own(envelope, when.key))}`);
    }
  } else if (reason !== undefined) {
    throw new HookError('reason is only accepted with outcome "deny"');
  }
  if (additionalContext !== undefined) {
    if (typeof additionalContext !== 'string') {
      throw new HookError(`additionalContext must be a string, got ${show(additionalContext)}`);
    }
    refuseIllegal(contract, where, 'additionalContext');
  }
  if (updatedInput !== undefined) {
    if (!isPlainObject(updatedInput)) {
      throw new HookError(`updatedInput must be a plain object, got ${show(updatedInput)}`);
    }
    refuseIllegal(contract, where, 'updatedInput');
    if (outcome === 'deny') {
      throw new HookError('updatedInput cannot be combined with a denial');
    }
  }
  return checkedParts(
    outcome,
    reason,
    additionalContext,
    updatedInput === undefined ? undefined : nativeRewrite(contract, envelope, updatedInput),
    checkExtra(contract, where, result.extra),
  );
}

// A checked result: every part an own key (undefined when absent) of an object with no prototype.
function checkedParts(outcome, reason, additionalContext, updatedInput, extra) {
  return Object.assign(Object.create(null), { outcome, reason, additionalContext, updatedInput, extra });
}

// A result's `extra`: the answers beyond the canonical parts some hosts take (the contract's
// `extras` names every one, with this host's way of taking it), each checked for its type; one the
// page refuses on this event fails the hook, as an illegal part does.
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
function checkExtra(contract, where, extra) {
  if (extra === undefined) return undefined;
  if (!isPlainObject(extra)) {
    throw new HookError(`extra must be a plain object, got ${show(extra)}`);
  }
  const known = Object.keys(contract.extras ?? {});
  const checked = Object.create(null);
  for (const name of Object.keys(extra)) {
    if (!known.includes(name)) {
      throw new HookError(`extra has unknown key ${JSON.stringify(name)}; allowed keys are ${known.join(', ') || 'none here'}`);
    }
    const value = extra[name];
    if (value === undefined) continue;
    const rule = contract.extras[name];
    if (typeof rule.refuse === 'string') {
      throw new HookError(`extra.${name} is not accepted on ${where}: ${rule.refuse}`);
    }
    if (name === 'systemMessage' && (typeof value !== 'string' || value.trim() === '')) {
      throw new HookError(`extra.systemMessage must be a non-empty string, got ${show(value)}`);
    }
    if (name === 'env') {
      if (!isPlainObject(value)) throw new HookError(`extra.env must be a plain object of variables, got ${show(value)}`);
      for (const [variable, text] of Object.entries(value)) {
        if (!ENV_NAME.test(variable)) throw new HookError(`extra.env has the variable name ${JSON.stringify(variable)}, which is not a shell variable's name`);
        if (typeof text !== 'string' || text.includes('\0')) throw new HookError(`extra.env.${variable} must be a string without NUL, got ${show(text)}`);
      }
    }
    checked[name] = value;
  }
  return checked;
}

// Each extra answer of a checked result with its rule on this host event ({ field }, { envFile },
// { drop } or { refuse }) and its value.
function extraRules(contract, checked) {
  return Object.keys(checked.extra ?? {}).map((name) => [name, contract.extras[name], checked.extra[name]]);
}

// The `env` answers a host takes as a file of `export` lines it sources later (Claude Code's
// CLAUDE_ENV_FILE): appended to that file; a note when the host named none.
function writeEnvFiles(contract, checked, notes) {
  for (const [name, rule, value] of extraRules(contract, checked)) {
    if (typeof rule.envFile !== 'string') continue;
    const file = services.env(rule.envFile);
    if (typeof file !== 'string' || file === '') {
      notes.push(`extra.${name} (${rule.envFile} is not set, so there is no session file to write)`);
      continue;
    }
    const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;
    const lines = Object.entries(value).map(([variable, text]) => `export ${variable}=${quote(text)}\n`).join('');
    try {
      services.appendFile(file, lines);
    } catch (error) {
      throw new HookError(`the ${name} answer could not be written to ${rule.envFile} (${file}): ${describeError(error)}`);
    }
  }
}

const PART_WORDS = {
  deny: 'a denial',
  allow: 'an explicit allow',
  ask: 'an ask',
  additionalContext: 'additionalContext',
  updatedInput: 'updatedInput',
};

// What the build decided for one part of a result on this host event: { write } (the fields the
// answer sets), { drop }, { refuse } or { block, exit } (a guard part with no channel: the call is
// blocked through the host's blocking exit). Anything else means the wrapper and its runtime
// disagree, an internal error.
function partSupport(contract, part) {
  const support = contract.parts?.[part];
  if (Array.isArray(support?.write) || typeof support?.drop === 'string' || typeof support?.refuse === 'string'
    || (typeof support?.block === 'string' && Number.isInteger(support?.exit) && support.exit !== 0)) {
    return support;
  }
  throw new Error(`the contract has no rule for the result part ${JSON.stringify(part)}`);
}

function refuseIllegal(contract, where, part) {
  const support = partSupport(contract, part);
  if (support.refuse !== undefined) {
    throw new HookError(`${where} cannot take ${PART_WORDS[part]}: ${support.refuse}`);
  }
}

function delivers(contract, part) {
  return partSupport(contract, part).write !== undefined;
}

// The guard part of a checked result (its denial, ask or rewrite) that this host has no channel
// for, where the host blocks on the hook's blocking exit: { part, reason, exit }, or undefined.
function blockedPart(contract, result) {
  const parts = [];
  if (result.outcome === 'deny' || result.outcome === 'ask') parts.push(result.outcome);
  if (result.updatedInput !== undefined) parts.push('updatedInput');
  for (const part of parts) {
    const support = partSupport(contract, part);
    if (support.block !== undefined) return { part, reason: support.block, exit: support.exit };
  }
  return undefined;
}

function blockLine(contract, blocked, result) {
  const { name, target, nativeEvent } = contract.hook;
  const what = blocked.part === 'deny' ? `denied (${result.reason})` : `answered ${PART_WORDS[blocked.part]}`;
  return `Agent Bundle hook blocked: ${name} (${target} ${nativeEvent}): the ${author(contract)} ${what}, which ${contract.host} cannot carry here (${blocked.reason}), so the call is blocked rather than let through`.replace(/\s*\n\s*/g, ' ');
}

/// The parts of a checked result this host has no channel for, each with the recorded reason.
function dropped(contract, result) {
  const notes = [];
  const dropNote = (part) => {
    const { drop } = partSupport(contract, part);
    if (drop !== undefined) notes.push(`${PART_WORDS[part]} (${drop})`);
  };
  if (result.outcome === 'allow' || result.outcome === 'ask') {
    // A rewrite that the host applies only with this decision carries the decision itself.
    const rewrite = result.updatedInput !== undefined ? partSupport(contract, 'updatedInput').write ?? [] : [];
    if (!rewrite.some((write) => write.ifAbsent && write.value === result.outcome)) dropNote(result.outcome);
  }
  if (result.additionalContext !== undefined) dropNote('additionalContext');
  for (const [name, rule] of extraRules(contract, result)) {
    if (typeof rule.drop === 'string') notes.push(`extra.${name} (${rule.drop})`);
  }
  return notes;
}

/// The host-native answer for a checked result, as JSON text, or undefined when there is nothing
/// to say (the host then goes on as if no hook ran; no permission is ever granted by silence). Each
/// delivered part sets the fields its contract rule lists, in a fixed order: context, the decision
/// (deny, allow or ask), the rewrite (whose own decision applies only when none was made).
function project(contract, result) {
  const answer = {};
  const containers = new Set();
  const apply = (part, own) => {
    for (const write of partSupport(contract, part).write) {
      const keys = write.path.split('.');
      let object = answer;
      for (const key of keys.slice(0, -1)) {
        if (!Object.hasOwn(object, key)) {
          const named = contract.eventNamed;
          object[key] = key === named?.object ? { [named.key]: contract.hook.nativeEvent } : {};
          containers.add(object[key]);
        }
        object = object[key];
      }
      const field = keys.at(-1);
      if (!(write.ifAbsent && Object.hasOwn(object, field))) {
        object[field] = Object.hasOwn(write, 'value') ? write.value : own;
      }
    }
  };
  if (result.additionalContext !== undefined && delivers(contract, 'additionalContext')) {
    apply('additionalContext', result.additionalContext);
  }
  if (result.outcome === 'deny') {
    apply('deny', result.reason);
  } else if ((result.outcome === 'allow' || result.outcome === 'ask') && delivers(contract, result.outcome)) {
    apply(result.outcome);
  }
  if (result.updatedInput !== undefined) {
    apply('updatedInput', result.updatedInput);
  }
  // Extra answers a host takes as top-level fields, beside the parts' (which they never replace).
  for (const [, rule, value] of extraRules(contract, result)) {
    if (typeof rule.field === 'string' && !Object.hasOwn(answer, rule.field)) answer[rule.field] = value;
  }
  if (Object.keys(answer).length === 0) return undefined;
  // Keys sorted in every object the answer's fields made; a value the handler gave stays as it is.
  const sorted = (object) => Object.fromEntries(
    Object.keys(object).sort().map((key) => [key, containers.has(object[key]) ? sorted(object[key]) : object[key]]),
  );
  // ASCII only: every character past U+007E as its `\u` escape (a pair of them past U+FFFF), which
  // any JSON reader reads back unchanged, so that no shell between the wrapper and the host that
  // re-encodes what a program prints (Windows PowerShell, in the console's code page) changes it.
  return JSON.stringify(sorted(answer)).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function isPlainObject(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return false;
  }
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

// An own property's value, never one read through the prototype chain (which code that ran in
// this process, a handler's merge of a model-written `__proto__` above all, may have polluted).
function own(object, key) {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

// A copy of a contract (or any JSON data) whose objects have no prototype: reading a part, a rule
// or a field that is absent gives undefined, whatever was added to Object.prototype.
function ownData(value) {
  if (Array.isArray(value)) return value.map(ownData);
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.create(null);
  for (const key of Object.keys(value)) copy[key] = ownData(value[key]);
  return copy;
}

// What a handler (or a route's <Agent.Result value>) returned, copied once into plain data: the own
// enumerable data properties of plain objects and arrays, read through their descriptors, so that no
// getter, Proxy trap, toJSON or prototype is ever run or read, and the copy's objects have no
// prototype. What cannot be copied as it is (a Proxy, a getter, a hidden key, a function, a class
// instance or other non-plain object inside the result, a cycle) fails the hook: the checks never
// judge one thing while the host is sent another. A top-level value that is not a plain object is
// returned as it is, for the checks to refuse by its kind.
function resultSnapshot(value, where) {
  if ((typeof value === 'object' || typeof value === 'function') && value !== null && services.isProxy(value)) {
    throw new HookError(`${where} is a Proxy; a result must be plain data`);
  }
  if (!isPlainObject(value)) return value;
  return copyPlain(value, where, []);
}

function copyPlain(value, where, ancestors) {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return value;
    case 'object':
      if (value === null) return null;
      break;
    default:
      throw new HookError(`${where} is a ${typeof value}; a result must be plain data`);
  }
  if (services.isProxy(value)) throw new HookError(`${where} is a Proxy; a result must be plain data`);
  if (ancestors.includes(value)) throw new HookError(`${where} refers back to an object that holds it; a result must be plain data`);
  const array = Array.isArray(value);
  const prototype = Object.getPrototypeOf(value);
  if (array ? prototype !== Array.prototype : prototype !== Object.prototype && prototype !== null) {
    throw new HookError(`${where} is ${kindOf(value)}; a result must be plain data (objects, arrays, strings, numbers, booleans, null)`);
  }
  const inner = [...ancestors, value];
  const entry = (key, shown) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined) return undefined;
    if (!Object.hasOwn(descriptor, 'value')) throw new HookError(`${shown} is a getter; a result must be plain data`);
    if (!descriptor.enumerable) throw new HookError(`${shown} is not enumerable; a result must be plain data`);
    return copyPlain(descriptor.value, shown, inner);
  };
  if (array) {
    const copy = [];
    for (let index = 0; index < value.length; index += 1) copy.push(entry(String(index), `${where}[${index}]`));
    return copy;
  }
  const copy = Object.create(null);
  for (const key of Object.getOwnPropertyNames(value)) {
    copy[key] = entry(key, `${where}.${key}`);
  }
  return copy;
}

function kindOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    if (isPlainObject(value)) return 'an object';
    const name = value.constructor?.name;
    return typeof name === 'string' && name !== '' && name !== 'Object' ? `a ${name} object` : 'an object with a prototype of its own';
  }
  return `a ${typeof value}`;
}

function show(value) {
  if (value === undefined) return 'nothing';
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    text = String(value);
  }
  text ??= String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function describeError(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return show(error);
}

// Where an error was thrown, in the handler's own sources: the stack's frames inside the bundles
// (hooks/handlers/*.mjs), mapped through the source map the build wrote beside each bundle. Read
// only when a handler fails, so a hook that succeeds never pays for it. Returns ' (at file:line:col)',
// with the first frame in the bundle's own code when the throw happened inside a package.
function whereThrown(error) {
  try {
    const stack = typeof error?.stack === 'string' ? error.stack : '';
    const mapped = [];
    for (const line of stack.split('\n').slice(1)) {
      const frame = /((?:file:\/\/)?\/[^\s()]*\/hooks\/handlers\/[^\s()]+\.mjs):(\d+):(\d+)\)?\s*$/.exec(line);
      if (frame) {
        const position = originalPosition(frame[1], Number(frame[2]) - 1, Number(frame[3]) - 1);
        if (position) mapped.push(position);
      }
    }
    if (mapped.length === 0) return '';
    const own = mapped.find((p) => !p.includes('node_modules/'));
    return own && own !== mapped[0] ? ` (at ${mapped[0]}, called from ${own})` : ` (at ${mapped[0]})`;
  } catch {
    return '';
  }
}

const sourceMaps = new Map();
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

// The source position of a generated (0-based) line and column, as `source:line:column` (1-based).
function originalPosition(file, line, column) {
  if (!sourceMaps.has(file)) {
    // Asked of the host once per file; null: it has none (or none that can be read).
    sourceMaps.set(file, services.sourceMap(file) ?? null);
  }
  const map = sourceMaps.get(file);
  if (!map || typeof map.mappings !== 'string') return undefined;
  const lines = map.mappings.split(';');
  let source = 0;
  let sourceLine = 0;
  let sourceColumn = 0;
  let best;
  for (let index = 0; index <= line && index < lines.length; index += 1) {
    let generated = 0;
    for (const segment of lines[index].split(',')) {
      if (segment === '') continue;
      const fields = decodeVlq(segment);
      generated += fields[0];
      if (fields.length < 4) continue;
      source += fields[1];
      sourceLine += fields[2];
      sourceColumn += fields[3];
      if (index === line && generated <= column) best = [source, sourceLine, sourceColumn];
      if (index === line && generated > column && best === undefined) best = [source, sourceLine, sourceColumn];
    }
  }
  if (!best || typeof map.sources?.[best[0]] !== 'string') return undefined;
  return `${map.sources[best[0]]}:${best[1] + 1}:${best[2] + 1}`;
}

function decodeVlq(segment) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}
