// ---------------------------------------------------------------------------------------------
// Event routes (D12): the props a route component gets, and rendering what it returns.

const ELEMENT = Symbol.for('agent-bundle.element');
const FRAGMENT = Symbol.for('agent-bundle.fragment');
const RESULT_VALUE_KEYS = ['outcome', 'reason', 'updatedInput', 'extra'];
let sequence = 0;

/**
 * @param {Contract} contract
 * @param {JsonObject} envelope
 * @param {JsonObject} payload
 * @param {Function} component
 * @param {number} startedAt
 * @param {Timer | undefined} timer
 */
async function renderRoute(contract, envelope, payload, component, startedAt, timer) {
  const { family, budgetMs } = /** @type {NonNullable<ContractHook['route']>} */ (contract.hook.route);
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
  Object.defineProperty(canonical, 'idempotencyKey', /** @type {PropertyDescriptor} */ ({
    __proto__: null, // a descriptor reads `value` and `writable` through its prototype otherwise
    enumerable: true,
    get: () => (key ??= idempotencyKey(family, envelope, contract.hook.target)),
  }));
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
/**
 * @param {string} family
 * @param {JsonObject} envelope
 * @param {string} target
 * @returns {string}
 */
function idempotencyKey(family, envelope, target) {
  return services.sha256Hex(JSON.stringify({ event: family, native: envelope, target }));
}

// A signal that aborts after `ms`, as AbortSignal.timeout's does: on the host's `timer` when the host
// gave one, else AbortSignal.timeout's, else with services.after; where there is none of them, a
// signal that never aborts. `cancel` (when there is one) stops the timer once the route has answered.
/**
 * @param {number} ms
 * @param {Timer | undefined} timer
 * @returns {{ signal: AbortSignal, cancel: (() => void) | undefined }}
 */
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
/**
 * @param {number} ms
 * @param {number} budgetMs
 * @param {Timer | undefined} timer
 * @returns {{ late: Promise<unknown>, cancel: (() => void) | undefined } | undefined}
 */
function routeStop(ms, budgetMs, timer) {
  const after = timer ?? services.after;
  if (after === undefined) return undefined;
  /** @type {(() => void) | undefined} */
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
