// ---------------------------------------------------------------------------------------------
// The decision of one delivery: the envelope parsed, checked and decoded, the handler or route run,
// the checked result answered or failed, in a wrapper process (decide) or in-process (decideInProcess).

// The decision, apart from the process: stdin's bytes and the handler in, the exit code, the lines
// for stderr and the answer for stdout (undefined: nothing to say) out. It never throws and touches
// no process state, so tests can run every host, event and result shape through it in one process.
// `startedAt`: when the delivery began on this process's performance clock, from which a route's
// budget counts (0, the process's start, in a wrapper; the request's arrival in the shared runtime).
// `timer`: a host's clock for the route's budget (decideInProcess's), else AbortSignal.timeout's.
/**
 * @param {Contract} contract
 * @param {Uint8Array} stdinBytes
 * @param {LoadHandler} loadHandler
 * @param {number} [startedAt]
 * @param {Timer} [timer]
 * @returns {Promise<Decision>}
 */
export async function decide(contract, stdinBytes, loadHandler, startedAt = 0, timer = undefined) {
  contract = ownData(contract);
  return spoken(contract, await judge(contract, stdinBytes, loadHandler, startedAt, timer));
}

// What one delivery decided, before it is said in the host's words: decide() without the answer's
// text. A judgement is a decision ({ code, stderr }) that, when the hook answered, also holds its
// checked result (`checked`, code 0) and the notes of the parts this host drops (`notes`); a block
// (`blocks`) is a failure of a fail-closed hook or a guard part with no channel here. A shared
// command (runCombined) judges each of its hooks so and answers for all of them at once (combined).
// It never throws. Its side effects are the hook's own (an env file written, as answerFor does).
/**
 * @param {Contract} contract
 * @param {Uint8Array} stdinBytes
 * @param {LoadHandler} loadHandler
 * @param {number} [startedAt]
 * @param {Timer} [timer]
 * @returns {Promise<Judgement>}
 */
async function judge(contract, stdinBytes, loadHandler, startedAt = 0, timer = undefined) {
  try {
    const envelope = parseEnvelope(stdinBytes);
    const foreign = foreignSender(contract, envelope);
    if (foreign !== undefined) {
      return { code: 0, stderr: [foreignLine(contract, foreign)] };
    }
    const payload = decodeEnvelope(contract, envelope);
    // The host fires this native event where the canonical one does not happen (a subagent's turn
    // ending, for a main-agent stop hook): nothing to decide.
    if (passes(contract, envelope)) {
      return { code: 0, stderr: [] };
    }
    return judged(contract, await checkedResult(contract, envelope, payload, loadHandler, startedAt, timer));
  } catch (error) {
    return failed(contract, error);
  }
}

// The checked result of one delivery, for a validated envelope and its payload: the handler's or the
// route's, checked against the contract. Throws a HookError saying what is wrong. The shared runtime
// calls it for a request, and sends the result back: the wrapper checks and projects it itself.
/**
 * @param {Contract} contract
 * @param {JsonObject} envelope
 * @param {JsonObject} payload
 * @param {LoadHandler} loadHandler
 * @param {number} [startedAt]
 * @param {Timer} [timer]
 * @returns {Promise<CheckedResult>}
 */
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
/**
 * @param {any} fields
 * @param {Contract} contract
 * @param {JsonObject} envelope
 * @returns {any}
 */
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
  Object.defineProperty(fields, 'dataDir', /** @type {PropertyDescriptor} */ ({
    __proto__: null,
    enumerable: true,
    get: () => (dataDir ??= services.dataDir((places.dataEnv ?? []).map((name) => services.env(name)).find(set), places.plugin)),
  }));
  return fields;
}

// The answer for a checked result: the host's own, with a note for each dropped part, or the
// blocking exit when a guard part has no channel here.
/**
 * @param {Contract} contract
 * @param {CheckedResult} checked
 * @returns {Decision}
 */
function answerFor(contract, checked) {
  return spoken(contract, judged(contract, checked));
}

// A checked result judged on this host: the block when a guard part has no channel here, else the
// result with the notes of the parts the host drops (and the env files written).
/**
 * @param {Contract} contract
 * @param {CheckedResult} checked
 * @returns {Judgement}
 */
function judged(contract, checked) {
  const blocked = blockedPart(contract, checked);
  if (blocked) {
    return { code: blocked.exit, stderr: [blockLine(contract, blocked, checked)], blocks: true };
  }
  const notes = dropped(contract, checked);
  writeEnvFiles(contract, checked, notes);
  return { code: 0, stderr: [], checked, notes };
}

// A judgement said in the host's words: the answer of its checked result, with its notes' line.
/**
 * @param {Contract} contract
 * @param {Judgement} judgement
 * @returns {Decision}
 */
function spoken(contract, judgement) {
  const { code, stderr, checked, notes } = judgement;
  if (checked === undefined) return { code, stderr, stdout: undefined };
  const output = project(contract, checked);
  const lines = notes === undefined || notes.length === 0 ? [] : [noteLine(contract, notes, checked, output)];
  return { code, stderr: [...stderr, ...lines], stdout: output };
}

/**
 * @param {Contract} contract
 * @param {unknown} error
 * @returns {Decision}
 */
function failed(contract, error) {
  return { code: contract.hook.failClosed?.exit ?? 1, stderr: [failureLine(contract, failureMessage(error))], stdout: undefined };
}

/**
 * @param {unknown} error
 * @returns {string}
 */
export function failureMessage(error) {
  return error instanceof HookError ? error.message : `internal error: ${describeError(error)}`;
}

// Another host running this host's hook document (VS Code's agent runs Claude Code's): the table
// names the keys its envelopes always have and this host's never lack. Such an envelope is not
// this host's, so the hook has nothing to decide there; it passes, saying so, instead of failing
// on fields that host never sends.
// An envelope that names an event names this wrapper's (a malformed one is failed, not passed), and
// a sender told apart by a missing key alone is also told by the variables it sets for its hooks.
/**
 * @param {Contract} contract
 * @param {JsonObject} envelope
 * @returns {string | undefined}
 */
function foreignSender(contract, envelope) {
  const nameKey = eventNameKey(contract);
  const found = (contract.foreignEnvelopes ?? []).find((f) =>
    f.present.every((k) => Object.hasOwn(envelope, k)) && f.absent.every((k) => !Object.hasOwn(envelope, k))
    && (nameKey === null || !f.present.includes(nameKey) || envelope[nameKey] === contract.hook.nativeEvent)
    && (f.presentEnv ?? []).every((name) => {
      const value = services.env(name);
      return typeof value === 'string' && value !== '';
    }));
  return found?.sender;
}

/**
 * @param {Contract} contract
 * @param {string} sender
 */
function foreignLine(contract, sender) {
  const { name, target, nativeEvent } = contract.hook;
  return `Agent Bundle hook note: ${name} (${target} ${nativeEvent}): passed through an envelope from ${sender}, which runs this host's hook files with fields of its own; the hook did not run (it runs on the hosts the bundle is built for)`.replace(/\s*\n\s*/g, ' ');
}

// The field naming the event, where the host sends one (null: it does not, and the document routed it).
/**
 * @param {Contract} contract
 * @returns {string | null}
 */
function eventNameKey(contract) {
  return contract.eventNameKey === undefined ? 'hook_event_name' : contract.eventNameKey;
}

/**
 * @param {Contract} contract
 * @param {JsonObject} envelope
 */
function passes(contract, envelope) {
  const key = contract.passWhenPresent;
  if (typeof key === 'string' && key !== '' && Object.hasOwn(envelope, key)) return true;
  const unless = contract.passUnless;
  if (unless === undefined || unless === null) return false;
  /** @type {unknown} */
  let value = envelope;
  for (const part of unless.key.split('.')) {
    value = isPlainObject(value) ? value[part] : undefined;
  }
  return value !== unless.equals;
}

// The envelope as the shared runtime receives it (already parsed by the wrapper): checked and
// decoded as a wrapper does. Throws a HookError.
/**
 * @param {Contract} contract
 * @param {unknown} envelope
 * @returns {JsonObject}
 */
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
/**
 * @param {Contract} contract
 * @param {unknown} envelope
 * @param {LoadHandler} loadHandler
 * @param {Timer} [timer]
 * @returns {Promise<Decision>}
 */
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
  /** @type {(() => void) | undefined} */
  let cancel;
  /** @type {Promise<Decision> | undefined} */
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
/**
 * @param {Contract} contract
 * @param {string} message
 * @returns {string}
 */
export function failureLine(contract, message) {
  const { name, target, nativeEvent, failClosed } = contract.hook;
  const blocked = failClosed ? '; the hook is fail-closed, so the tool call is blocked' : '';
  return `Agent Bundle hook error: ${name} (${target} ${nativeEvent}): ${message}${blocked}`.replace(/\s*\n\s*/g, ' ');
}

/**
 * @param {Contract} contract
 * @param {string[]} notes
 * @param {CheckedResult} result
 * @param {string | undefined} output
 */
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

/**
 * @param {Uint8Array} bytes
 * @returns {JsonObject}
 */
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
    throw new HookError(`stdin is not exactly one JSON value: ${/** @type {Error} */ (error).message}`);
  }
  if (!isPlainObject(value)) {
    throw new HookError(`stdin must be a JSON object, got ${kindOf(value)}`);
  }
  return value;
}

/**
 * @param {Contract} contract
 * @param {JsonObject} envelope
 * @returns {JsonObject}
 */
function decodeEnvelope(contract, envelope) {
  const expected = contract.hook.nativeEvent;
  const nameKey = eventNameKey(contract);
  if (nameKey !== null && own(envelope, nameKey) !== expected) {
    throw new HookError(`${nameKey} must equal ${JSON.stringify(expected)}, got ${show(own(envelope, nameKey))}`);
  }
  /** @type {JsonObject} */
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

/**
 * @param {ContractField} field
 * @param {string} key
 * @param {unknown} value
 */
function checkField(field, key, value) {
  const ok = {
    'string': () => typeof value === 'string',
    'string|null': () => value === null || typeof value === 'string',
    'boolean': () => typeof value === 'boolean',
    'number': () => typeof value === 'number' && Number.isFinite(value),
    'object': () => isPlainObject(value),
    'string[]': () => Array.isArray(value) && value.every((item) => typeof item === 'string')
      && !(field.nonEmpty && value.length === 0),
    'enum': () => /** @type {unknown[]} */ (field.values).includes(value),
    'any': () => true,
  }[field.type];
  if (!ok()) {
    const wanted = field.type === 'enum'
      ? `one of ${/** @type {unknown[]} */ (field.values).map((v) => JSON.stringify(v)).join(', ')}`
      : field.nonEmpty ? 'a non-empty array of strings' : TYPE_WORDS[field.type];
    throw new HookError(`${key} must be ${wanted}, got ${show(value)}`);
  }
}

/**
 * @param {ContractField} field
 * @param {string} key
 * @param {unknown} value
 * @param {boolean} route
 */
function decodeField(field, key, value, route) {
  switch (field.decode) {
    case 'positive':
      return /** @type {number} */ (value) > 0;
    case 'json':
      try {
        return JSON.parse(/** @type {string} */ (value));
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
/** @param {Contract} contract */
function author(contract) {
  return contract.hook.route ? 'route' : 'handler';
}

/**
 * @param {Contract} contract
 * @param {LoadHandler} loadHandler
 * @returns {Promise<Function>}
 */
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
