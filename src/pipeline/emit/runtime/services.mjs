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
/** @type {unknown[]} */
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
const DEFAULT_SERVICES = /** @type {Readonly<Services>} */ (Object.freeze({
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
}));

let services = /** @type {Services} */ ({ __proto__: null, ...DEFAULT_SERVICES });

// Installs the host's services: `partial`'s members over the defaults (each call starts again from
// the defaults; an undefined member keeps the default).
/** @param {Partial<Services> | undefined} partial */
export function installServices(partial) {
  const next = /** @type {Services} */ ({ __proto__: null, ...DEFAULT_SERVICES });
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
