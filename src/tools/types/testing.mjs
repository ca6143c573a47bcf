// ---------------------------------------------------------------------------------------------
// The kit's own calls. Each takes the host (a target name: 'claude', 'codex', …), the event (a config
// event or, for a route, its family; or the host's own name of it) and the envelope the host sent
// (a recorded one, or one written in its shape), and hands them to the core above exactly as a
// wrapper of that host and event does (`judge`: the envelope checked and decoded by the contract,
// the handler called with what a wrapper calls it with, its result checked and projected into the
// host's answer). So a test gets what the handler gets, and the answer the host would, from the same
// code and host tables as the wrappers.
//
// What no wrapper process runs here, and so a test does not get: the hook's deadline (the test's own
// timeout stands for it; a route's budget is kept, as the core keeps it), the stdin limit, and the
// answer channel (the answer is returned, not written). The hook's surroundings are the test's
// (`options`): the host's variables (none unless given: the runner's own environment never leaks
// in), the plugin's folder, and its data folder (the host's variable when given, else one temporary
// folder per process, never agent-bundle's per-user folder, which a wrapper would use).

/**
 * A test's declaration and surroundings of the hook (agent-bundle/testing.d.mts: TestOptions).
 * @typedef {{ env?: Readonly<Record<string, string | undefined>>, pluginRoot?: string, dataDir?: string,
 *   name?: string, failClosed?: boolean, timeoutMs?: number, directory?: string }} TestOptions
 */

import * as kitFs from 'node:fs';
import * as kitOs from 'node:os';
import * as kitPath from 'node:path';
import * as kitCrypto from 'node:crypto';
import * as kitUtil from 'node:util';

// The surroundings of the call being decided (the core's services read them), one call at a time.
let kitScope = kitScopeOf({});
let kitQueue = Promise.resolve();
/** @type {string | undefined} */
let kitTemporaryData;

installServices({
  env: (name) => {
    const value = kitScope.env[name];
    return typeof value === 'string' ? value : undefined;
  },
  isProxy: (value) => kitUtil.types.isProxy(value),
  sourceMap: () => null,
  sha256Hex: (text) => kitCrypto.createHash('sha256').update(text).digest('hex'),
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
  pluginRoot: () => kitScope.pluginRoot,
  appendFile: (path, text) => kitFs.appendFileSync(path, text),
  dataDir: (own) => {
    const dir = own ?? kitScope.dataDir ?? kitTemporaryDataDir();
    kitFs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  },
});

// The data folder of hooks whose test names none: one per process, made when first read, removed
// when the process ends.
function kitTemporaryDataDir() {
  if (kitTemporaryData === undefined) {
    const dir = kitFs.mkdtempSync(kitPath.join(kitOs.tmpdir(), 'agent-bundle-test-data-'));
    kitTemporaryData = dir;
    process.once('exit', () => kitFs.rmSync(dir, { recursive: true, force: true }));
  }
  return kitTemporaryData;
}

/** @param {TestOptions} options */
function kitScopeOf(options) {
  const env = Object.create(null);
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (typeof value === 'string') env[name] = value;
  }
  return Object.freeze({ env, pluginRoot: options.pluginRoot, dataDir: options.dataDir });
}

// Runs `run` with `scope` as the surroundings, after every call before it has ended: a handler that
// reads its data folder reads the one its own call gave.
function kitExclusively(scope, run) {
  const turn = kitQueue.then(() => {
    kitScope = scope;
    return run();
  });
  kitQueue = turn.then(() => undefined, () => undefined);
  return turn;
}

// A frozen object (a context, a route's props) whose getters read `scope`'s surroundings whenever a
// test reads them, after its call has ended.
function kitPinned(object, scope) {
  const copy = {};
  for (const [key, property] of Object.entries(Object.getOwnPropertyDescriptors(object))) {
    const read = property.get;
    if (read === undefined) {
      Object.defineProperty(copy, key, property);
      continue;
    }
    Object.defineProperty(copy, key, {
      enumerable: property.enumerable,
      get() {
        const before = kitScope;
        kitScope = scope;
        try {
          return read.call(object);
        } finally {
          kitScope = before;
        }
      },
    });
  }
  return Object.freeze(copy);
}

// The failure of a hook: the wrapper's failure line (or why it did not run the handler), with the
// exit code it would have ended with and whether the host then blocks the call.
class HookFailure extends Error {
  constructor(message, { exitCode, stderr, blocks, cause }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'HookFailure';
    this.exitCode = exitCode;
    this.stderr = stderr;
    this.blocks = blocks;
  }
}

// The contract a wrapper of `host`'s `event` (a config event, or a family for a route: `kind`) holds,
// as the build makes it for a hook declared with nothing but its module, with `options`' facts.
function kitContract(kind, host, event, options) {
  if (typeof host !== 'string' || !Object.hasOwn(KIT_HOSTS, host)) {
    throw new TypeError(`agent-bundle's test kit knows no host ${show(host)}; one of ${Object.keys(KIT_HOSTS).join(', ')}`);
  }
  const table = KIT_HOSTS[host];
  const group = kind === 'route' ? 'routes' : 'events';
  const what = kind === 'route' ? 'route family' : 'config event';
  const known = table[group];
  let name = event;
  if (typeof name !== 'string' || !Object.hasOwn(known, name)) {
    const why = typeof name === 'string' && Object.hasOwn(table.unsupported[group], name) ? table.unsupported[group][name] : undefined;
    if (why !== undefined) {
      throw new TypeError(`${table.host} has no ${name} ${kind === 'route' ? 'route' : 'hook'}: ${why}`);
    }
    // The host's own name of the event.
    const natives = Object.keys(known).filter((canonical) => known[canonical].hook.nativeEvent === name);
    if (natives.length > 1) {
      throw new TypeError(`${table.host}'s ${name} is the native event of ${natives.join(' and ')}: name the ${what}`);
    }
    if (natives.length === 0) {
      throw new TypeError(`${show(name)} is neither a ${what} ${host} has (${Object.keys(known).join(', ')}) nor ${host}'s own name of one`);
    }
    name = natives[0];
  }
  const contract = structuredClone(known[name]);
  if (contract.tools === true) contract.tools = structuredClone(table.tools);
  contract.places.plugin = 'test';
  if (options.name !== undefined) contract.hook.name = String(options.name);
  if (options.failClosed === true) {
    if (contract.hook.failClosed === undefined) {
      throw new TypeError(`${table.host} has no way to block on ${contract.hook.nativeEvent} when a hook fails, so the build refuses failClosed for ${name}`);
    }
  } else {
    delete contract.hook.failClosed;
  }
  if (options.timeoutMs !== undefined) {
    if (contract.hook.route === undefined) throw new TypeError('timeoutMs is a route\'s budget; a config hook has none');
    if (!Number.isInteger(options.timeoutMs) || options.timeoutMs < 1) {
      throw new TypeError(`timeoutMs must be a positive whole number of milliseconds, got ${show(options.timeoutMs)}`);
    }
    contract.hook.route.budgetMs = options.timeoutMs;
  }
  return { contract: ownData(contract), table };
}

// The delivery: what the wrapper decides for `subject` (the handler or route: a function, its
// module, or a promise of its module) on `envelope`, with the error it threw, if any.
async function kitDecided(kind, host, event, subject, envelope, options) {
  const { contract, table } = kitContract(kind, host, event, options);
  if (!isPlainObject(envelope)) {
    throw new TypeError(`the envelope must be a JSON object, as a host sends it, got ${kindOf(envelope)}`);
  }
  let made = envelope;
  if (table.hookArguments) {
    made = RECORDED_ENVELOPES[host](contract.hook.nativeEvent, envelope, options.directory ?? process.cwd()) ?? envelope;
  }
  // The envelope as the wrapper reads it: JSON text on its stdin.
  const bytes = new TextEncoder().encode(JSON.stringify(made));
  const scope = kitScopeOf(options);
  /** @type {{ error?: unknown }} */
  const thrown = {};
  const loadHandler = async () => {
    const module = await (typeof subject === 'function' ? { default: subject } : subject);
    const own = module?.default;
    if (typeof own !== 'function') return module;
    return {
      default: async (...args) => {
        try {
          return await own(...args);
        } catch (error) {
          thrown.error = error;
          throw error;
        }
      },
    };
  };
  return kitExclusively(scope, async () => {
    const judgement = await judge(contract, bytes, loadHandler, performance.now(), undefined);
    return { contract, judgement, thrown: thrown.error, scope };
  });
}

// What a test sees of a delivery: the run, or the failure thrown.
function kitRun({ contract, judgement, thrown }) {
  const { code, stderr, stdout } = spoken(contract, judgement);
  if (judgement.checked === undefined && !judgement.blocks) {
    if (code === 0) {
      return Object.freeze({ status: 'passed', result: undefined, answer: undefined, stdout: undefined, stderr, exitCode: 0, dropped: [] });
    }
    throw kitFailure(contract, code, stderr, thrown);
  }
  return Object.freeze({
    status: judgement.blocks ? 'blocked' : 'answered',
    result: judgement.checked === undefined ? undefined : JSON.parse(JSON.stringify(judgement.checked)),
    answer: stdout === undefined ? undefined : JSON.parse(stdout),
    stdout,
    stderr,
    exitCode: code,
    dropped: judgement.notes ?? [],
  });
}

function kitFailure(contract, exitCode, stderr, cause) {
  const blocks = contract.hook.failClosed !== undefined && exitCode === contract.hook.failClosed.exit;
  return new HookFailure(stderr.join('\n'), { exitCode, stderr, blocks, cause });
}

// What the handler (or route) was called with, when the wrapper called it; else the failure.
async function kitInput(kind, host, event, envelope, options) {
  /** @type {unknown[] | undefined} */
  let called;
  const delivery = await kitDecided(kind, host, event, (...args) => {
    called = args;
  }, envelope, options);
  if (called === undefined) {
    const { contract, judgement } = delivery;
    const { code, stderr } = judgement;
    if (code === 0) {
      const { name, target, nativeEvent } = contract.hook;
      const told = contract.passWhenPresent !== undefined && Object.hasOwn(envelope, contract.passWhenPresent)
        ? `the envelope has ${contract.passWhenPresent}`
        : `the envelope's ${contract.passUnless?.key} is not ${JSON.stringify(contract.passUnless?.equals)}`;
      const why = stderr.length > 0
        ? stderr.join('\n')
        : `Agent Bundle hook note: ${name} (${target} ${nativeEvent}): ${told}, which ${contract.host} sends where ${contract.hook.event} does not happen, so the wrapper passes it without running the ${kind === 'route' ? 'route' : 'handler'}`;
      throw new HookFailure(why, { exitCode: 0, stderr, blocks: false, cause: undefined });
    }
    throw kitFailure(contract, code, stderr, undefined);
  }
  return { called, scope: delivery.scope };
}

/**
 * The event and context a wrapper of `host`'s `event` hands its handler for `envelope`.
 * @param {string} host
 * @param {string} event
 * @param {JsonObject} envelope
 * @param {TestOptions} [options]
 */
async function hookInput(host, event, envelope, options = {}) {
  const { called, scope } = await kitInput('config', host, event, envelope, options);
  return Object.freeze({ event: called[0], context: kitPinned(called[1], scope) });
}

/**
 * Runs `handler` (a function, its module, or a promise of its module) on `envelope` as a wrapper of
 * `host`'s `event` does: its result checked and projected into the host's answer.
 * @param {string} host
 * @param {string} event
 * @param {unknown} handler
 * @param {JsonObject} envelope
 * @param {TestOptions} [options]
 */
async function runHook(host, event, handler, envelope, options = {}) {
  return kitRun(await kitDecided('config', host, event, handler, envelope, options));
}

/**
 * The props a route of `family` gets on `host` for `envelope` (the original's createEventRouteInput).
 * @param {string} host
 * @param {string} family
 * @param {JsonObject} envelope
 * @param {TestOptions} [options]
 */
async function routeInput(host, family, envelope, options = {}) {
  const { called, scope } = await kitInput('route', host, family, envelope, options);
  return kitPinned(called[0], scope);
}

/**
 * Renders `route` (a component, its module, or a promise of its module) on `envelope` as the
 * wrapper of `host`'s route of `family` does: its answer checked and projected into the host's.
 * @param {string} host
 * @param {string} family
 * @param {unknown} route
 * @param {JsonObject} envelope
 * @param {TestOptions} [options]
 */
async function renderEventRoute(host, family, route, envelope, options = {}) {
  return kitRun(await kitDecided('route', host, family, route, envelope, options));
}

/**
 * A recorded envelope: the JSON object in `file` (a path, relative to the working folder, or a
 * file: URL).
 * @param {string | URL} file
 */
function readEnvelope(file) {
  const text = kitFs.readFileSync(file, 'utf8');
  const value = JSON.parse(text);
  if (!isPlainObject(value)) {
    throw new TypeError(`${String(file)} does not hold a JSON object, as a host sends one: got ${kindOf(value)}`);
  }
  return value;
}

export { HookFailure, hookInput, readEnvelope, renderEventRoute as renderRoute, routeInput, runHook };
