// The agent-bundle hook runtime's Node process shell. `cargo agent-bundle build` writes it into every
// artifact right after the runtime's core (src/pipeline/emit/runtime/ in agent-bundle's sources: the
// decision itself, see its header), as one file, hooks/agent-bundle-runtime.mjs, which calls the core's
// functions by name. Each wrapper (hooks/<name>[.<host>].mjs) calls `runHook` with the contract of
// its host and event, baked in from agent-bundle's host tables. Do not edit: the next build rewrites
// this file.
//
// What it does, in order: read stdin to the end (at most the hook's maxInputBytes, which the build
// decided: an envelope over it is a failure of the hook, so a fail-closed guard blocks); have the
// core decide (`decide`), or, for a route of the shared runtime, forward the envelope to it and check
// and project its result as the core does its own; write the answer on the host's answer channel
// only, the lines on stderr, and exit with the decision's code. The hook settles exactly once, and a
// handler that ends the process itself (process.exit with any code) before it was answered fails the
// hook with the same policy. Also here: `simulateInProcess` (`hooks simulate` of an in-process hook),
// and the shared runtime's client and endpoint helpers, which its server imports.

// Node's own modules, taken as the CommonJS objects they are (process.getBuiltinModule: Node 20.16,
// 22.3 and newer) rather than imported: an `import` of one builds its ES module facade, which reads
// every export, and node:fs's getters load all of node:stream that way, node:util's its argument
// parser and MIME types (issue 46: 2.2 ms of CPU a start on Node 22, 2.7 ms on Node 20, with the
// deadline's clock below). An older Node imports node:module once for createRequire. A handler that
// imports node:fs builds its facade then, after the runtime's patches (syncBuiltinESMExports keeps
// any facade built before them in step).
/** @type {(id: string) => any} */
const builtin = /** @type {any} */ (process).getBuiltinModule?.bind(process)
  ?? (await import('node:module')).createRequire(import.meta.url);
const fs = /** @type {typeof import('node:fs')} */ (builtin('node:fs'));
const { fileURLToPath, pathToFileURL } = /** @type {typeof import('node:url')} */ (builtin('node:url'));
const nodeModule = /** @type {typeof import('node:module')} */ (builtin('node:module'));
const { syncBuiltinESMExports } = nodeModule;
const { isProxy } = /** @type {typeof import('node:util/types')} */ (builtin('node:util/types'));
const { dirname, join } = /** @type {typeof import('node:path')} */ (builtin('node:path'));

// The core's services (installServices), from Node, installed when this module is evaluated.
installServices({
  env: (name) => process.env[name],
  isProxy: (value) => isProxy(value),
  // The map beside a bundle: `${file}.map`, read once per file (the core keeps it), null when there
  // is none or it is not JSON.
  sourceMap: (file) => {
    const path = file.startsWith('file://') ? fileURLToPath(file) : file;
    try {
      return JSON.parse(fs.readFileSync(`${path}.map`, 'utf8'));
    } catch {
      return null;
    }
  },
  // node:crypto is loaded when a route first reads its idempotency key, not before.
  sha256Hex: (text) => {
    const { createHash } = builtin('node:crypto');
    return createHash('sha256').update(text).digest('hex');
  },
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
  // This file is <plugin folder>/hooks/agent-bundle-runtime.mjs on every host.
  pluginRoot: () => dirname(dirname(fileURLToPath(import.meta.url))),
  appendFile: (path, text) => fs.appendFileSync(path, text),
  dataDir: (own, plugin) => {
    const dir = own ?? defaultDataDir(plugin);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  },
});

// agent-bundle's data folder for a plugin whose host names none: the system's place for an
// application's per-user data, in a folder of agent-bundle's, one per plugin.
function defaultDataDir(plugin) {
  return join(userFolder('data'), 'plugins', plugin);
}

// agent-bundle's folder in the system's place for an application's per-user data or caches
// (`kind`): %LOCALAPPDATA% on Windows (caches in a `cache` folder there), ~/Library's on macOS,
// $XDG_DATA_HOME or $XDG_CACHE_HOME (else their defaults) elsewhere.
function userFolder(kind) {
  const home = () => builtin('node:os').homedir();
  const set = (value) => (typeof value === 'string' && value !== '' ? value : undefined);
  const cache = kind === 'cache';
  if (process.platform === 'win32') {
    const local = set(process.env.LOCALAPPDATA) ?? join(home(), 'AppData', 'Local');
    return cache ? join(local, 'agent-bundle', 'cache') : join(local, 'agent-bundle');
  }
  if (process.platform === 'darwin') {
    return join(home(), 'Library', cache ? 'Caches' : 'Application Support', 'agent-bundle');
  }
  const xdg = cache
    ? set(process.env.XDG_CACHE_HOME) ?? join(home(), '.cache')
    : set(process.env.XDG_DATA_HOME) ?? join(home(), '.local', 'share');
  return join(xdg, 'agent-bundle');
}

// Milliseconds since the process started: the clock a hook's deadline counts on. process.uptime()
// is the performance clock's within a millisecond without node:perf_hooks, which the `performance`
// global loads on first use (0.5 to 1.3 ms of CPU a start, issue 46).
function uptimeMs() {
  return process.uptime() * 1000;
}

// Node's compile cache (module.enableCompileCache: Node 22.8 and newer), turned on before the handler
// is imported: V8's code for the handler's bundle (and what it loads) is kept between calls, so a
// large bundle is not compiled again at every call (issue 46: a call of a 0.94 MB bundle took 18 to
// 19 ms less, about a fifth, on Node 22; the first, which writes the entry, 7 to 10 ms of CPU more).
// In a per-user cache folder of agent-bundle's, never in the artifact (a plugin's folder may
// not be writable, and is shared); Node keeps one folder per Node version in it and checks every
// entry against the source it compiles. Node's own variables win: NODE_COMPILE_CACHE has it cache
// in that folder from the start, NODE_DISABLE_COMPILE_CACHE turns it off. The runtime and the
// wrapper are compiled before this runs, and are not cached: small, and V8 compiles their functions
// only when called. A cache that cannot be written changes nothing.
function enableCompileCache() {
  // Not in the Node types the runtime is checked against (Node 18's).
  const { enableCompileCache: enable } = /** @type {any} */ (nodeModule);
  if (typeof enable !== 'function') return;
  try {
    enable(compileCacheDir());
  } catch {
    // The hook runs as it would without the cache.
  }
}

// Where the compile cache lives: agent-bundle's per-user cache folder.
function compileCacheDir() {
  return join(userFolder('cache'), 'node-compile-cache');
}

// The variable a detached run of a hook carries (the hook's id): it runs the handler instead of
// detaching again.
const DETACHED = 'AGENT_BUNDLE_DETACHED';

// `ownFile`: the wrapper's URL, given by a wrapper whose hook runs detached (`async` on a host that
// has no key for it).
export async function runHook(contract, loadHandler, ownFile = undefined) {
  contract = ownData(contract);
  // A fail-closed route rendered here keeps its denial even when it blocks the main thread.
  const watchdog = blockedRouteWatchdog(contract);
  const answer = openAnswerChannel(contract.hook.answerFd, { workerThreads: contract.hook.workerThreads === true });
  const failureCode = contract.hook.failClosed?.exit ?? 1;
  let settled = false;
  let exitCode = failureCode;
  // The one way out: the first caller wins, every later one (a late answer after the deadline, an
  // error thrown by a timer after the answer) is ignored. It writes and exits synchronously, so
  // nothing the handler left running (a timer calling process.exit, an 'exit' listener) comes between
  // the decision, its answer and the exit code.
  const settle = (code, stderrLines, stdout) => {
    if (settled) return;
    settled = true;
    watchdog?.done();
    exitCode = code;
    clearTimeout(deadline);
    clearTimeout(blockedStop);
    answer.log(stderrLines);
    if (stdout !== undefined && !answer.write(stdout)) {
      // The host closed its end: the answer is lost, so the hook failed (a fail-closed one blocks).
      exitCode = failureCode;
      answer.log([failureLine(contract, 'the answer could not be written to the host')]);
    }
    leave();
  };
  const fail = (message) => settle(failureCode, [failureLine(contract, message)]);
  const leave = () => leaveWith(exitCode, onExit, exitProcess, reallyExit);
  // A handler (or a package it uses) that ends the process ends the hook: before the hook has
  // answered, that is a failure of the hook, so a fail-closed guard blocks whatever code it chose
  // (a handler's process.exit(1) or process.exit(0) never lets the call through by silence).
  const exitProcess = process.exit.bind(process);
  // process.reallyExit: Node's own, undocumented (and so not in its types).
  const nodeProcess = /** @type {any} */ (process);
  const reallyExit = typeof nodeProcess.reallyExit === 'function' ? nodeProcess.reallyExit.bind(process) : undefined;
  const ended = (how) => {
    if (!settled) {
      settled = true;
      exitCode = failureCode;
      clearTimeout(deadline);
      clearTimeout(blockedStop);
      answer.log([failureLine(contract, `the ${author(contract)} ended the process (${how}) before the hook answered`)]);
    }
  };
  nodeProcess.exit = (/** @type {unknown} */ code) => {
    ended(`process.exit(${code === undefined ? '' : show(code)})`);
    leave();
  };
  if (reallyExit) {
    nodeProcess.reallyExit = () => {
      ended('process.reallyExit');
      reallyExit(exitCode);
    };
  }
  const onExit = () => {
    ended('its event loop ran out');
    process.exitCode = exitCode;
  };
  process.on('exit', onExit);

  process.on('uncaughtException', (error) => {
    fail(`the ${author(contract)} threw outside its promise: ${describeError(error)}${whereThrown(error)}`);
  });
  process.on('unhandledRejection', (reason) => {
    fail(`the ${author(contract)} left a promise rejected: ${describeError(reason)}${whereThrown(reason)}`);
  });
  // Counted from the process's start, not from here: the host's clock started before node did. The
  // build refuses timeouts whose milliseconds a timer cannot hold (it would fire after 1 ms).
  const deadline = setTimeout(
    () => fail(`the ${author(contract)} did not finish within ${contract.hook.deadlineMs} ms of the hook's start (its timeout, less room for the host to read the answer)`),
    Math.min(MAX_TIMER_MS, Math.max(0, contract.hook.deadlineMs - uptimeMs())),
  );
  // A route the watchdog had to end never returns to the code that awaited it (its whole stack was
  // terminated): this timer, due between the route's stop and the watchdog, answers for it.
  const blockedStop = watchdog === undefined ? undefined : setTimeout(
    () => fail(`the route did not answer within its budget of ${contract.hook.route.budgetMs} ms and blocked its thread, which was ended, so it was answered for with its failure policy`),
    Math.min(MAX_TIMER_MS, Math.max(0, watchdog.stopMs + WATCHDOG_MARGIN_MS / 2 - performance.now())),
  );
  try {
    const bytes = await readStdin(contract.hook.maxInputBytes);
    if (contract.hook.detach && process.env[DETACHED] !== contract.hook.id) {
      // An async hook where the host has no async of its own: the wrapper starts itself again,
      // detached, hands it the envelope and answers at once with nothing, so the host goes on; the
      // detached run decides alone, within the hook's deadline, and nobody reads its answer.
      await detachedRun(contract, ownFile, bytes);
      settle(0, [], undefined);
      return;
    }
    if (contract.hook.readsStdin) {
      serveStdinAgain(bytes);
    }
    if (contract.hook.childProcesses) {
      keepChildrenOffTheAnswer();
    }
    enableCompileCache();
    const { code, stderr, stdout } = contract.hook.route?.shared
      ? await forward(contract, bytes, loadHandler)
      : await decide(contract, bytes, loadHandler, 0); // the delivery started with this process
    settle(code, stderr, stdout);
  } catch (error) {
    fail(failureMessage(error));
  }
}

// A combined command (D18): one process for every hook of the plugin the host would start for one
// call on one native event. `group` is the command's own facts (`matchKey`: the envelope's key its
// hooks' matchers read, the tool's name or the session's source; `answerFd`), `members` each
// hook's wrapper module (its contract and handler loader, as an in-process host imports it) with its
// own matcher (an anchored regex, or null for every call). Each hook whose matcher takes the call is
// judged as its own wrapper would judge it (judge: the same checks, handler call and projection
// rules), within its own deadline and with its own failure policy, and the one answer is the
// combination the host would make of their separate answers (combined). Fates are not coupled:
// - a hook that throws, rejects or ends the process (process.exit, process.reallyExit) fails alone,
//   with its own policy: its own promise rejects, and an error outside it (a timer's) is traced to
//   its hook by the handler file its stack passes through (an error no unanswered hook's file is on
//   fails every hook not yet answered, each with its policy). Not by an AsyncLocalStorage: with
//   async hooks on, V8's termination of a blocked thread (below) leaves Node's async id stack
//   unbalanced, and Node aborts;
// - a hook that hangs fails alone at its deadline;
// - a hook that blocks the thread (a synchronous loop) is ended by a watchdog thread
//   (combinedWatchdog, as blockedRouteWatchdog does for a route) while the others still have time
//   to answer, and fails alone at its deadline.
// The watchdog thread costs about 20 ms of CPU, so it starts only when two or more hooks run.
export async function runCombined(group, members) {
  // The members' wrapper modules are imported, not run (runAlone).
  importedOnly = true;
  let modules;
  try {
    modules = await Promise.all(members.map(({ hook }) => hook()));
  } catch (error) {
    // Without its hooks' modules the command cannot judge the call: it fails as a fail-closed one of
    // them would (`failureExit`, which the build wrote).
    process.stderr.write(`Agent Bundle hook error: the combined command could not load its hooks: ${describeError(error)}\n`);
    process.exit(group.failureExit);
  }
  const hooks = members.map(({ matcher }, i) => ({
    contract: ownData(modules[i].contract),
    loadHandler: modules[i].loadHandler,
    handlerUrl: String(modules[i].handlerUrl),
    matcher,
  }));
  const contracts = hooks.map(({ contract }) => contract);
  const answer = openAnswerChannel(group.answerFd, { workerThreads: contracts.some((c) => c.hook.workerThreads === true) });
  // A failure of the command itself (stdin unreadable): every hook's, so any fail-closed one blocks.
  const failureCode = contracts.find((c) => c.hook.failClosed)?.hook.failClosed?.exit ?? 1;
  /** @type {(Judgement | undefined)[]} */
  const judgements = hooks.map(() => undefined);
  /** @type {boolean[]} */
  const running = hooks.map(() => false);
  const exitProcess = process.exit.bind(process);
  const nodeProcess = /** @type {any} */ (process);
  const reallyExit = typeof nodeProcess.reallyExit === 'function' ? nodeProcess.reallyExit.bind(process) : undefined;
  /** @type {{ started: (index: number, due: number) => void, done: (index: number) => void } | undefined} */
  let watchdog;
  /** @type {ReturnType<typeof setTimeout>[]} */
  const timers = [];
  let settled = false;
  let exitCode = failureCode;
  const leave = () => leaveWith(exitCode, onExit, exitProcess, reallyExit);
  const settle = (code, stderrLines, stdout) => {
    if (settled) return;
    settled = true;
    exitCode = code;
    for (const timer of timers) clearTimeout(timer);
    answer.log(stderrLines);
    if (stdout !== undefined && !answer.write(stdout)) {
      exitCode = failureCode;
      answer.log(contracts.map((contract) => failureLine(contract, 'the answer could not be written to the host')));
    }
    leave();
  };
  // In turn, what follows a hook's judgement (set once the hooks start).
  /** @type {((index: number) => void) | undefined} */
  let next;
  // Hook `index` has its judgement: the first one counts. Once every running hook has one, the
  // command answers for all of them.
  const judged = (index, judgement) => {
    if (settled || judgements[index] !== undefined) return;
    judgements[index] = judgement;
    watchdog?.done(index);
    next?.(index);
    if (running.every((runs, i) => !runs || judgements[i] !== undefined)) {
      const ran = hooks.flatMap(({ contract }, i) => (running[i] ? [{ contract, judgement: /** @type {Judgement} */ (judgements[i]) }] : []));
      const { code, stderr, stdout } = combined(ran, group.anyFailureBlocks === true);
      settle(code, stderr, stdout);
    }
  };
  const fail = (index, message) => judged(index, failed(contracts[index], new HookError(message)));
  // An error outside a hook's promise: the failure of the unanswered hooks whose handler file its
  // stack passes through, or, when it passes through none, of every hook not yet answered.
  const failOutside = (stack, message) => {
    const unanswered = hooks.map((_, i) => i).filter((i) => running[i] && judgements[i] === undefined);
    const traced = unanswered.filter((i) => stack.includes(hooks[i].handlerUrl));
    for (const i of traced.length > 0 ? traced : unanswered) fail(i, `the ${author(contracts[i])} ${message}`);
  };
  const stackOf = (error) => (typeof error?.stack === 'string' ? error.stack : '');
  // Ending the process is the caller's failure, and does not end the others: the call throws (so the
  // code after it does not run), and its hook fails whatever it does with the error.
  const endedBy = (how) => {
    failOutside(stackOf(new Error()), `ended the process (${how}) before the hook answered`);
    throw new HookError(`${how} was called; the combined command goes on for its other hooks`);
  };
  nodeProcess.exit = (/** @type {unknown} */ code) => endedBy(`process.exit(${code === undefined ? '' : show(code)})`);
  if (reallyExit) nodeProcess.reallyExit = () => endedBy('process.reallyExit');
  const onExit = () => {
    if (!settled) {
      for (let i = 0; i < hooks.length; i++) {
        if (running[i] && judgements[i] === undefined) fail(i, `the ${author(contracts[i])}'s event loop ran out before the hook answered`);
      }
    }
    process.exitCode = exitCode;
  };
  process.on('exit', onExit);
  process.on('uncaughtException', (error) => {
    failOutside(stackOf(error), `threw outside its promise: ${describeError(error)}${whereThrown(error)}`);
  });
  process.on('unhandledRejection', (reason) => {
    failOutside(stackOf(reason), `left a promise rejected: ${describeError(reason)}${whereThrown(reason)}`);
  });
  // Until stdin is read, the command's own deadline is the longest of its hooks'.
  const longest = Math.max(...contracts.map((c) => c.hook.deadlineMs));
  const unread = setTimeout(
    () => settle(failureCode, contracts.map((c) => failureLine(c, `stdin was not read within ${longest} ms of the command's start`))),
    Math.min(MAX_TIMER_MS, Math.max(0, longest - uptimeMs())),
  );
  timers.push(unread);
  let bytes;
  try {
    bytes = await readStdin(Math.max(...contracts.map((c) => c.hook.maxInputBytes)));
  } catch (error) {
    settle(failureCode, contracts.map((c) => failureLine(c, failureMessage(error))));
    return;
  } finally {
    clearTimeout(unread);
  }
  // Each hook's matcher, as the host would apply it to a command of its own.
  let envelope;
  try {
    envelope = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    envelope = undefined;
  }
  const subject = isPlainObject(envelope) && typeof group.matchKey === 'string' ? envelope[group.matchKey] : undefined;
  for (let i = 0; i < hooks.length; i++) {
    const { matcher } = hooks[i];
    running[i] = typeof matcher !== 'string' || typeof subject !== 'string' || new RegExp(matcher).test(subject);
  }
  if (!running.some(Boolean)) {
    settle(0, [], undefined);
    return;
  }
  if (contracts.some((c, i) => running[i] && c.hook.readsStdin)) serveStdinAgain(bytes);
  if (contracts.some((c, i) => running[i] && c.hook.childProcesses)) keepChildrenOffTheAnswer();
  enableCompileCache();
  // When each hook must have answered, counted from its start: its deadline, or for a fail-closed
  // route rendered here, just after its stop (the route's own stop answers for it; a route ended by
  // the watchdog never returns to the code that awaited it, so this answers instead).
  const answerAfter = contracts.map((c) => {
    const route = c.hook.route;
    if (route === undefined || route.shared || c.hook.failClosed === undefined) return c.hook.deadlineMs;
    return Math.min(route.budgetMs + ROUTE_GRACE_MS, c.hook.deadlineMs) + WATCHDOG_MARGIN_MS / 2;
  });
  const order = hooks.map((_, i) => i).filter((i) => running[i]);
  const needsWatchdog = order.length > 1 || order.some((i) => answerAfter[i] !== contracts[i].hook.deadlineMs);
  if (needsWatchdog) watchdog = combinedWatchdog(hooks.length);
  for (let i = 0; i < hooks.length; i++) if (!running[i]) watchdog?.done(i);
  // Starts hook `i` now: its deadline and, where a hook blocks the thread, the watchdog count from here.
  const start = (i) => {
    const { contract, loadHandler } = hooks[i];
    // Counted from the process's start, as its own wrapper's would be, unless it starts in turn
    // after another (the host would then have started its process now).
    const from = group.inTurn && i !== order[0] ? uptimeMs() : 0;
    watchdog?.started(i, from + answerAfter[i]);
    if (bytes.length > contract.hook.maxInputBytes) {
      fail(i, `the envelope on stdin is ${bytes.length} bytes, more than this hook's limit of ${contract.hook.maxInputBytes} bytes (maxInputBytes), so it is too large to judge`);
      return;
    }
    const late = answerAfter[i] === contract.hook.deadlineMs
      ? `the ${author(contract)} did not finish within ${contract.hook.deadlineMs} ms of the hook's start (its timeout, less room for the host to read the answer)`
      : `the route did not answer within its budget of ${contract.hook.route?.budgetMs} ms and blocked its thread, which was ended, so it was answered for with its failure policy`;
    timers.push(setTimeout(() => fail(i, late), Math.min(MAX_TIMER_MS, Math.max(0, from + answerAfter[i] - uptimeMs()))));
    judge(contract, bytes, loadHandler, from).then(
      (judgement) => judged(i, judgement),
      (error) => fail(i, failureMessage(error)),
    );
  };
  if (!group.inTurn) {
    for (const i of order) start(i);
    return;
  }
  // In turn, as the host runs separate hooks: the next starts when one has answered, and none after
  // one that denies (or blocks) runs at all.
  next = (i) => {
    const judgement = /** @type {Judgement} */ (judgements[i]);
    const denies = judgement.checked?.outcome === 'deny'
      || blocksAlone(contracts[i], judgement, group.anyFailureBlocks === true);
    const after = order.indexOf(i) + 1;
    if (denies) {
      for (const j of order.slice(after)) {
        running[j] = false;
        watchdog?.done(j);
      }
    } else if (after < order.length) {
      start(order[after]);
    }
  };
  start(order[0]);
}

// Whether this process imports hooks' wrapper modules to run them itself (a combined command, or
// `hooks simulate` of one hook of it) rather than run as one of them.
let importedOnly = false;

// A combined command's hook, run as a command of its own (by hand, or by a test): its wrapper module
// ends with this, which runs it alone as its own wrapper would, unless a combined command (or
// `hooks simulate`) imported the module to run it.
export async function runAlone(contract, loadHandler) {
  if (!importedOnly) await runHook(contract, loadHandler);
}

// A hook answered by the plugin's own MCP server (its warm server, `mcp_tool`): the server runs each
// such hook in a worker thread of its own (so one that spins or hangs holds no other hook), which
// calls this with the hook's wrapper module. Each message `{ id, fields }` (the hook input as the
// host's entry interpolated it) is decided as the wrapper would decide it, and `{ id, code, stdout, stderr }` posted back: the
// answer for stdout (a string, or undefined), the lines for stderr, the exit code. The hook's deadline
// is the server's to keep: it ends the worker when the hook is late.
export async function serveWarmHook(wrapperUrl) {
  importedOnly = true;
  const { parentPort } = /** @type {typeof import('node:worker_threads')} */ (builtin('node:worker_threads'));
  if (parentPort === null) throw new Error('serveWarmHook runs in a worker thread');
  const port = parentPort;
  // The server's fd 1 is the MCP channel: what the hook writes there goes to stderr, as a
  // wrapper's does without the handover.
  keepFdOneOffTheAnswer(fs, syncBuiltinESMExports, 1, true);
  /** @type {{ contract: Contract, loadHandler: LoadHandler }} */
  const { contract, loadHandler } = await import(wrapperUrl);
  if (contract.hook.workerThreads === true) keepWorkersOffTheAnswer();
  port.on('message', (/** @type {{ id: number, fields: Record<string, unknown>, arrived: number }} */ { id, fields, arrived }) => {
    const bytes = new TextEncoder().encode(warmEnvelope(contract, fields));
    // A route's budget counts from the request's arrival in the server (D13), on this thread's clock.
    const startedAt = Math.max(0, performance.now() - Math.max(0, Date.now() - arrived));
    decide(contract, bytes, loadHandler, startedAt).then(
      ({ code, stdout, stderr }) => port.postMessage({ id, code, stdout, stderr }),
      // decide never throws; were it to, the hook fails by its own policy.
      (error) => port.postMessage({ id, ...failed(ownData(contract), error) }),
    );
  });
  port.postMessage({ ready: true });
}

// The host's hook input as the host's `mcp_tool` entry hands it over: each field interpolated into a
// string (`"${tool_input}"`: an object as its JSON, an absent value as ''). Made the envelope a
// command would read again, by the contract's field types: a field that is not a string is parsed
// back from its JSON, and an empty string stands for an absent field unless the field is required.
/**
 * @param {Contract} contract
 * @param {Record<string, unknown>} fields
 * @returns {string}
 */
function warmEnvelope(contract, fields) {
  /** @type {Record<string, unknown>} */
  const envelope = {};
  for (const [key, value] of Object.entries(fields)) {
    const field = contract.input.find((f) => f.key === key);
    if (value === '' && field !== undefined && field.required !== true) continue;
    if (typeof value !== 'string' || field === undefined || field.type === 'string') {
      envelope[key] = value;
      continue;
    }
    const json = field.type !== 'any' || /^\s*[[{]/.test(value);
    try {
      envelope[key] = json ? JSON.parse(value) : value;
    } catch {
      envelope[key] = value;
    }
  }
  return JSON.stringify(envelope);
}

// The watchdog of a combined command: a thread that ends the JavaScript running on the main thread
// when it has blocked the thread too long for the other hooks. The main thread beats every
// BEAT_MS while its hooks run; a beat missed for more than half the time left to the next
// unanswered hook's time to answer (`at[i]`, on this process's clock; -1 for a hook not started), or
// for at least BLOCKED_MIN_MS, means one hook blocks the thread (a synchronous loop):
// ending it gives the others the other half to answer, and it fails at its own deadline. A hook
// whose synchronous work is that long fails so too: it would starve the hooks sharing its process.
const BEAT_MS = 25;
const BLOCKED_MIN_MS = 100;
const COMBINED_WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const { settled, at, origin, beat, tick, least, margin } = workerData;
let session;
const now = () => performance.timeOrigin + performance.now() - origin;
const check = () => {
  let due = Infinity;
  let waiting = false;
  for (let i = 0; i < at.length; i++) {
    const when = Atomics.load(at, i);
    if (Atomics.load(settled, i) !== 0) continue;
    if (when < 0) waiting = true;
    else due = Math.min(due, when);
  }
  if (due === Infinity) {
    // Every started hook has answered: the next, in turn, is about to start, or all are done.
    if (waiting) setTimeout(check, tick);
    return;
  }
  const last = Atomics.load(beat, 0);
  const blocked = now() - last;
  if (blocked <= Math.max(least, (due - last) / 2)) {
    setTimeout(check, tick);
    return;
  }
  if (session === undefined) {
    session = new (require('node:inspector').Session)();
    session.connectToMainThread();
  }
  // Disconnected once done, so that the process's exit does not wait for the session.
  session.post('Runtime.terminateExecution', () => {
    session?.disconnect();
    session = undefined;
  });
  setTimeout(check, margin);
};
check();
`;
function combinedWatchdog(count) {
  const { Worker } = builtin('node:worker_threads');
  const settled = new Int32Array(new SharedArrayBuffer(4 * count));
  // Each hook's time to answer, in whole ms of this process's clock; -1 until it starts.
  const at = new Int32Array(new SharedArrayBuffer(4 * count)).fill(-1);
  const beat = new Int32Array(new SharedArrayBuffer(4));
  const beating = () => Atomics.store(beat, 0, Math.floor(uptimeMs()));
  beating();
  const heart = setInterval(beating, BEAT_MS);
  heart.unref();
  const worker = new Worker(COMBINED_WATCHDOG_SOURCE, {
    eval: true,
    workerData: {
      settled,
      at,
      // The process's start on the wall clock, from which the thread counts this process's clock.
      origin: Date.now() - uptimeMs(),
      beat,
      tick: BEAT_MS,
      least: BLOCKED_MIN_MS,
      margin: WATCHDOG_MARGIN_MS,
    },
    stdin: false,
    stdout: true,
    stderr: true,
  });
  worker.unref();
  return {
    started: (index, due) => Atomics.store(at, index, Math.ceil(due)),
    // A hook answered, or will not run: once none is left, the heart stops.
    done: (index) => {
      Atomics.store(settled, index, 1);
      if (settled.every((flag) => flag !== 0)) clearInterval(heart);
    },
  };
}

// Ends the process with `code`: the exit code is the decision's, whatever an 'exit' listener of the
// handler sets (`onExit`, the runtime's own, moved last, sets it again), and the process ends even
// when such a listener throws out of process.exit. `exitProcess` and `reallyExit` are Node's own,
// kept before a handler could replace them.
function leaveWith(code, onExit, exitProcess, reallyExit) {
  process.removeListener('exit', onExit);
  process.on('exit', onExit);
  try {
    exitProcess(code);
  } finally {
    reallyExit?.(code);
  }
}

// A route that blocks the main thread (a synchronous loop, or a loop of awaits that never yields
// to a timer) keeps every timer of the wrapper from firing: its budget's (the core's routeStop) and
// the deadline's. Only the host's own timeout would end it, and hosts take a timed-out hook as a
// non-blocking failure: a fail-closed route's denial would be lost. For such a route (rendered in
// this process: a shared route's wrapper only waits, within the budget) a watchdog thread ends it:
// WATCHDOG_MARGIN_MS after the route's stop, if the hook has not settled, it asks V8, through the
// inspector's session with the main thread (which reaches a busy thread by an interrupt), to
// terminate the JavaScript running there, again every WATCHDOG_MARGIN_MS until the hook settles;
// the main thread is then back in its event loop, where the route's stop, long due, fails the route
// with its policy (the denial). The worker costs 19.5 ms of wall time and 31.7 ms of CPU a call
// (1.37× and 1.60× a route without it, issue 44), so only fail-closed routes start one. Returns
// { stopMs: the route's stop on this process's clock, done: tells the watchdog the hook settled }.
const WATCHDOG_MARGIN_MS = 200;
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const { settled, at, margin } = workerData;
const check = () => {
  if (Atomics.load(settled, 0) !== 0) return;
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connectToMainThread();
  const terminate = () => {
    if (Atomics.load(settled, 0) !== 0) return;
    session.post('Runtime.terminateExecution', () => {});
    setTimeout(terminate, margin).unref?.();
  };
  terminate();
};
setTimeout(check, Math.max(0, at - (performance.timeOrigin + performance.now())));
`;
function blockedRouteWatchdog(contract) {
  const route = contract.hook.route;
  if (route === undefined || route.shared || contract.hook.failClosed === undefined) return undefined;
  // The route's stop on this process's clock: its budget counts from the process's start.
  const stopMs = Math.min(route.budgetMs + ROUTE_GRACE_MS, contract.hook.deadlineMs);
  const { Worker } = builtin('node:worker_threads');
  const settled = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    workerData: { settled, at: performance.timeOrigin + stopMs + WATCHDOG_MARGIN_MS, margin: WATCHDOG_MARGIN_MS },
    stdin: false,
    stdout: true,
    stderr: true,
  });
  worker.unref();
  return { stopMs, done: () => Atomics.store(settled, 0, 1) };
}

// ---------------------------------------------------------------------------------------------
// An in-process host's entry module (OpenCode's plugin, Pi's extension) runs its hooks through
// `inProcessHooks(entryUrl)`: the hook document beside the entry module (hooks.json: per native event,
// the wrapper module of each hook, with its matcher over the tool's name) and `run(native, name,
// envelope, apply)`, which runs every entry of `native` whose matcher takes the tool's `name` (entries
// without one take every call), in document order, each through decideInProcess (the same validation,
// handler call, result checks and projection as every wrapper process). `envelope()` makes each
// entry's envelope when it runs, so a later hook of the call sees what an earlier one rewrote;
// `apply(answer)` carries an answer out the host's way. A decision with the blocking code (a
// fail-closed hook that failed, a guard part the host has no channel for) is thrown, for the entry
// module to block the call with; any other failure is logged and the call goes on (the hook fails
// open). An entry marked `async` is started and not waited for: in a node host (Pi), in a detached
// node process of its own (detachedInProcess), so its work outlives the host's run; in a host that is
// no node (OpenCode's Bun binary) in its process, where only its lines are logged when it ends.
export function inProcessHooks(entryUrl) {
  const document = JSON.parse(fs.readFileSync(new URL('./hooks.json', entryUrl), 'utf8'));
  const wrappers = new Map();
  const wrapper = (module) => {
    let loaded = wrappers.get(module);
    if (!loaded) {
      loaded = import(new URL(module, entryUrl).href);
      wrappers.set(module, loaded);
    }
    return loaded;
  };
  const log = (lines) => {
    for (const line of lines) console.error(line);
  };
  const run = async (native, name, envelope, apply) => {
    for (const entry of document.hooks[native] ?? []) {
      if (entry.matcher !== undefined && !new RegExp(entry.matcher).test(name ?? '')) continue;
      if (entry.async === true && process.versions.bun === undefined) {
        detachedInProcess(new URL(entry.module, entryUrl), envelope()).catch((error) => log([String(error)]));
        continue;
      }
      const { contract, loadHandler } = await wrapper(entry.module);
      if (entry.async === true) {
        decideInProcess(contract, envelope(), loadHandler).then(({ stderr }) => log(stderr), (error) => log([String(error)]));
        continue;
      }
      const { code, stderr, stdout } = await decideInProcess(contract, envelope(), loadHandler);
      if (code === 0) {
        log(stderr);
        if (stdout !== undefined) apply(JSON.parse(stdout));
      } else if (code === 1) {
        log(stderr);
      } else {
        throw new Error(stderr.join('\n'));
      }
    }
  };
  return { run, log, takes: (native) => (document.hooks[native] ?? []).length > 0 };
}

// An async in-process hook run apart from the host: a detached node process that decides the envelope
// on its stdin through the wrapper module (simulateInProcess, its answer read by nobody) and exits
// once decided, so a handler's leftover timers do not keep it.
const DETACHED_IN_PROCESS = "const [runtime, wrapper] = process.argv.slice(1); \
const { simulateInProcess } = await import(runtime); \
await simulateInProcess(wrapper); \
process.exit();";
function detachedInProcess(wrapperUrl, envelope) {
  const args = ['--input-type=module', '-e', DETACHED_IN_PROCESS, import.meta.url, fileURLToPath(wrapperUrl)];
  return detachedNode(args, JSON.stringify(envelope));
}

// ---------------------------------------------------------------------------------------------
// `hooks simulate` of an in-process hook: the wrapper module at `wrapperPath` decides the envelope on
// stdin through decideInProcess, as the entry module has it decide the host's; the answer object goes
// to stdout as JSON, the lines to stderr, and the decision's code is the exit code.
// With `entryPath` (the host's entry module: OpenCode's plugin, Pi's extension), stdin may also be the host's own hook
// arguments as recorded: the entry module's `AgentBundle.recordedEnvelope` makes the envelope of
// them, as it does for the host's call (and leaves anything else to be read as an envelope).
export async function simulateInProcess(wrapperPath, entryPath = undefined) {
  importedOnly = true;
  const { contract, loadHandler } = await import(pathToFileURL(wrapperPath).href);
  let outcome;
  try {
    let envelope = parseEnvelope(await readStdin(contract.hook.maxInputBytes));
    if (entryPath !== undefined) {
      const { AgentBundle } = await import(pathToFileURL(entryPath).href);
      envelope = AgentBundle.recordedEnvelope(contract.hook.nativeEvent, envelope, process.cwd()) ?? envelope;
    }
    outcome = await decideInProcess(contract, envelope, loadHandler);
  } catch (error) {
    outcome = failed(ownData(contract), error);
  }
  for (const line of outcome.stderr) process.stderr.write(`${line}\n`);
  if (outcome.stdout !== undefined) process.stdout.write(outcome.stdout);
  process.exitCode = outcome.code;
}

// ---------------------------------------------------------------------------------------------
// The shared runtime's client (D12): a route with `runtime: 'shared'` renders in the plugin's MCP
// server process; its wrapper validates the envelope, forwards it over the endpoint's socket, and
// checks and projects the result that comes back as it would its own handler's.
//
// It trusts nothing it did not create. The runtime folder must be a real folder (not a link) of this
// user's with mode 0700, and the socket a socket of this user's in it; anything else fails the route
// (runtime-untrusted) rather than ask a server that another user may run. Node cannot read a Unix
// socket peer's credentials (SO_PEERCRED): in a folder only this user can write to, a socket owned by
// this user was bound by a process of this user, which is what the peer's uid would prove.

const PROTOCOL_VERSION = 1;
// The protocol's message limit for a route whose envelopes may be `maxInputBytes` long: a request
// carries the envelope and a reply may carry a rewrite as large, so 1 MiB or the envelope and room for
// the other keys, whichever is larger. The server allows the largest of its routes'.
export function messageLimit(maxInputBytes) {
  return Math.max(1024 * 1024, (maxInputBytes ?? 0) + 64 * 1024);
}
// How often a wrapper tries the socket again while a server of the endpoint is about to answer.
const HANDOVER_POLL_MS = 15;
/** @type {unknown[]} */
const ERROR_CODES = ['epoch-mismatch', 'invalid-message', 'runtime-failed'];
const REPLY_KEYS = {
  ok: ['status', 'protocolVersion', 'artifactEpoch', 'result'],
  error: ['status', 'protocolVersion', 'artifactEpoch', 'code', 'message'],
};
// What to do about a runtime folder or socket that is not this user's own.
export const UNTRUSTED_HINT = 'remove it and let the plugin\'s MCP server create it again (another user\'s can be removed '
  + 'by that user or an administrator), or set XDG_RUNTIME_DIR to a folder of your own';

// Where the endpoint of an install lives: one directory per user, one socket per artifact epoch and
// install root (not per host: one server serves every host of the install).
export function endpointPaths(epoch, root) {
  const { createHash } = builtin('node:crypto');
  const dir = runtimeDir(process.env);
  const hash = createHash('sha256').update(`${epoch}:${root}`).digest('hex').slice(0, 32);
  const socket = `${dir}/event-${hash}.sock`;
  return { dir, socket, lock: `${socket}.lock`, standbyPrefix: `event-${hash}.sock.standby-` };
}

// The per-user runtime folder: $AGENT_BUNDLE_RUNTIME_DIR when set, else agent-bundle in
// $XDG_RUNTIME_DIR (the user's own, made by the login manager) when that is an absolute path, else
// /tmp/agent-bundle-<uid>. Without a trailing slash, through which lstat would follow a link.
export function runtimeDir(env) {
  const uid = currentUid() ?? 'user';
  const xdg = env.XDG_RUNTIME_DIR?.startsWith('/') ? `${env.XDG_RUNTIME_DIR.replace(/\/+$/, '')}/agent-bundle` : undefined;
  const dir = env.AGENT_BUNDLE_RUNTIME_DIR || xdg || `/tmp/agent-bundle-${uid}`;
  return dir.length > 1 ? dir.replace(/\/+$/, '') : dir;
}

function currentUid() {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

// Why the runtime folder cannot be used, read with lstat (a link is not followed): 'missing', a
// sentence, or undefined when it is a real folder of this user's with mode 0700, so that nothing in
// it was put there by anyone else. The server checks it before it makes anything in it, the wrapper
// before it asks the socket.
export function folderProblem(dir) {
  let stat;
  try {
    stat = fs.lstatSync(dir);
  } catch (/** @type {any} */ error) {
    return error.code === 'ENOENT' ? 'missing' : `the runtime folder ${dir} cannot be read (${error.code ?? error.message})`;
  }
  if (stat.isSymbolicLink()) return `the runtime folder ${dir} is a symbolic link, which is never followed`;
  if (!stat.isDirectory()) return `the runtime folder ${dir} is not a folder`;
  const uid = currentUid();
  if (uid !== undefined && stat.uid !== uid) {
    return `the runtime folder ${dir} belongs to uid ${stat.uid}, not to this user (uid ${uid})`;
  }
  if ((stat.mode & 0o777) !== 0o700) {
    return `the runtime folder ${dir} has mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}, not 0700 (this user's alone)`;
  }
  return undefined;
}

// The longest socket path that bind and connect take on every system (sun_path: 108 bytes on Linux,
// 104 on macOS and the BSDs, less the terminating NUL). libuv cuts a longer one short without a word,
// so a server would bind another path than its socket's (and die on the chmod of the real one) and a
// wrapper would ask whatever sits at the cut path.
const SOCKET_PATH_MAX = 103;
const folderDescriptors = new Map();

// The address by which the endpoint's socket is bound or asked: its path, or where that is too long
// for an address, on Linux the same file through a descriptor of its folder
// (`/proc/self/fd/<fd>/<name>`). The descriptor is opened without following a link and is the
// folder that passed folderProblem (the same device and inode), kept open for the process's life
// (a server's listener is unlinked through it when it closes) and opened again should the folder be
// replaced. Elsewhere a path too long throws, saying what to do.
export function socketAddress(dir, socket) {
  const length = Buffer.byteLength(socket);
  if (length <= SOCKET_PATH_MAX) return socket;
  if (process.platform !== 'linux') {
    throw new Error(`the socket path ${socket} is ${length} bytes, longer than the ${SOCKET_PATH_MAX} a socket address holds; `
      + 'set AGENT_BUNDLE_RUNTIME_DIR (or XDG_RUNTIME_DIR) to a shorter folder');
  }
  const seen = fs.lstatSync(dir);
  let fd = folderDescriptors.get(dir);
  if (fd !== undefined) {
    const held = fs.fstatSync(fd);
    if (held.dev !== seen.dev || held.ino !== seen.ino) {
      folderDescriptors.delete(dir);
      try { fs.closeSync(fd); } catch {}
      fd = undefined;
    }
  }
  if (fd === undefined) {
    const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;
    fd = fs.openSync(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    const opened = fs.fstatSync(fd);
    if (opened.dev !== seen.dev || opened.ino !== seen.ino) {
      fs.closeSync(fd);
      throw new Error(`the runtime folder ${dir} was replaced while it was opened`);
    }
    folderDescriptors.set(dir, fd);
  }
  return `/proc/self/fd/${fd}/${socket.slice(dir.length + 1)}`;
}

// The same for the endpoint's socket, in a folder that passed: a socket of this user's.
function socketProblem(socket) {
  let stat;
  try {
    stat = fs.lstatSync(socket);
  } catch (/** @type {any} */ error) {
    return error.code === 'ENOENT' ? 'missing' : `the socket ${socket} cannot be read (${error.code ?? error.message})`;
  }
  if (!stat.isSocket()) return `${socket} is not a socket`;
  const uid = currentUid();
  if (uid !== undefined && stat.uid !== uid) {
    return `the socket ${socket} belongs to uid ${stat.uid}, not to this user (uid ${uid})`;
  }
  return undefined;
}

// Whether the endpoint may be asked now: { unavailable } when its folder or socket does not exist
// (yet: a server may be coming), { untrusted: why } when either is not this user's own, undefined
// when the socket may be asked.
function endpointRefusal({ dir, socket }) {
  const folder = folderProblem(dir);
  if (folder === 'missing') return { unavailable: 'ENOENT' };
  if (folder !== undefined) return { untrusted: `${folder}, so no server in it is asked; ${UNTRUSTED_HINT}` };
  const own = socketProblem(socket);
  if (own === 'missing') return { unavailable: 'ENOENT' };
  if (own !== undefined) return { untrusted: `${own}, so it is not asked; ${UNTRUSTED_HINT}` };
  return undefined;
}

// A process's state and start time (field 22 of /proc/<pid>/stat, in clock ticks since boot): null
// when there is no such process, undefined when this system cannot tell (no /proc).
export function processStart(pid) {
  if (process.platform !== 'linux') return undefined;
  let stat;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (/** @type {any} */ error) {
    const gone = error.code === 'ENOENT' || error.code === 'ESRCH';
    return gone && fs.existsSync(`/proc/${process.pid}/stat`) ? null : undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], startTime: fields[19] };
}

// Whether the holder of a claim (the text of a lock or a standby marker: `{ pid, startTime }`) is
// alive. Claims are written whole (a temporary file linked or renamed into place), so one that is
// empty, garbled or names no pid is nobody's, and so is one whose pid belongs to another process
// now: where the system tells start times, one that started at another time than the claim records
// (pid 1, a reused pid); elsewhere one this user cannot signal.
export function claimHolderAlive(text) {
  let claim;
  try {
    claim = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isPlainObject(claim) || !Number.isInteger(claim.pid)) return false;
  const pid = /** @type {number} */ (claim.pid);
  if (pid <= 0) return false;
  const started = processStart(pid);
  if (started === null) return false;
  if (started !== undefined) {
    return started.state !== 'Z' && started.state !== 'X' && typeof claim.startTime === 'string' && claim.startTime === started.startTime;
  }
  if (pid === 1) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone; EPERM: another user's process, which no server of this user's is.
    return false;
  }
}

// The same for a claim file: a missing or unreadable one holds nothing.
export function claimAlive(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  return claimHolderAlive(text);
}

// Whether a server of the endpoint is about to answer although its socket does not yet: an owner
// between its claim and its listen, or a standby that takes over from an owner which has just left.
function endpointExpected({ dir, lock, standbyPrefix }) {
  if (claimAlive(lock)) return true;
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return false;
  }
  return names.some((name) => name.startsWith(standbyPrefix) && claimAlive(`${dir}/${name}`));
}

// The install root: the folder holding hooks/ (this file's folder) and mcp/.
export function installRoot() {
  return fs.realpathSync(fileURLToPath(new URL('..', import.meta.url))).replace(/\/$/, '');
}

async function forward(contract, bytes, loadHandler) {
  const { shared, family, budgetMs } = contract.hook.route;
  let envelope;
  try {
    envelope = parseEnvelope(bytes);
    const foreign = foreignSender(contract, envelope);
    if (foreign !== undefined) {
      return { code: 0, stderr: [foreignLine(contract, foreign)], stdout: undefined };
    }
    decodeEnvelope(contract, envelope);
  } catch (error) {
    return failed(contract, error);
  }
  if (passes(contract, envelope)) {
    return { code: 0, stderr: [], stdout: undefined };
  }
  if (process.platform === 'win32') {
    // The endpoint is a Unix socket in a folder only this user may write to (runtimeDir); Windows
    // has neither, and a named pipe with the same guarantee is not built: the route renders here
    // when it may, else it fails with its policy, saying why.
    if (shared.fallback) return decide(contract, bytes, loadHandler, 0);
    return {
      code: contract.hook.failClosed?.exit ?? 1,
      stderr: [failureLine(contract, 'runtime-unavailable: the shared runtime does not run on Windows yet, and this route has no standalone fallback (`fallback: \'standalone\'` renders it in its wrapper there)')],
      stdout: undefined,
    };
  }
  const endpoint = endpointPaths(shared.epoch, installRoot());
  const { socket } = endpoint;
  const request = {
    protocolVersion: PROTOCOL_VERSION,
    artifactEpoch: shared.epoch,
    event: family,
    hostContractRevision: contract.revision,
    target: contract.hook.target,
    native: envelope,
  };
  // The route's budget (the plan's: its timeoutMs, else the shared default) counts from the request's
  // arrival, which is after this send; the wrapper's deadline counts from this process's start.
  const sentAt = performance.now();
  const limit = Math.min(budgetMs, contract.hook.deadlineMs - sentAt);
  const until = sentAt + Math.max(0, limit);
  // The folder and the socket are checked before every try: a server is asked only where nobody but
  // this user can have put it.
  const attempt = () => {
    const refusal = endpointRefusal(endpoint);
    if (refusal !== undefined) return refusal;
    let address;
    try {
      address = socketAddress(endpoint.dir, socket);
    } catch (error) {
      return { unavailable: failureMessage(error) };
    }
    return exchange(address, request, Math.max(0, until - performance.now()), messageLimit(contract.hook.maxInputBytes));
  };
  let outcome = await attempt();
  // Between one session's server leaving and a standby's takeover, and between a server's claim and
  // its listen, the socket does not answer although a server is coming: the wrapper waits for it,
  // within the same budget, instead of failing the route (which would let an unguarded call through).
  // A request a leaving server dropped unanswered is asked again the same way.
  while ((outcome.unavailable || outcome.dropped) && performance.now() + HANDOVER_POLL_MS < until
    && endpointExpected(endpoint)) {
    await new Promise((resolve) => setTimeout(resolve, HANDOVER_POLL_MS));
    outcome = await attempt();
  }
  // Every way the exchange can fail is a failure of the hook, with its failure policy.
  const fail = (code, message) => ({
    code: contract.hook.failClosed?.exit ?? 1,
    stderr: [failureLine(contract, `${code}: ${message}`)],
    stdout: undefined,
  });
  const shapeless = () => fail('invalid-message', 'the shared runtime\'s reply does not have the protocol\'s shape');
  if (outcome.untrusted) return fail('runtime-untrusted', outcome.untrusted);
  if (outcome.unavailable) {
    if (shared.fallback) return decide(contract, bytes, loadHandler, 0);
    return fail('runtime-unavailable', `no shared runtime answers at ${socket} (${outcome.unavailable}); the plugin's MCP server runs it, and this route has no standalone fallback`);
  }
  if (outcome.dropped) return fail('runtime-unavailable', `the shared runtime at ${socket} closed the connection without an answer, and no other server of the install took over`);
  if (outcome.timeout) return fail('runtime-timeout', `the shared runtime did not answer within ${Math.round(limit)} ms`);
  const reply = outcome.reply;
  if (!isPlainObject(reply) || reply.protocolVersion !== PROTOCOL_VERSION) return shapeless();
  if (reply.status === 'error') {
    if (!ERROR_CODES.includes(reply.code) || typeof reply.message !== 'string'
      || Object.keys(reply).some((key) => !REPLY_KEYS.error.includes(key))) {
      return shapeless();
    }
    return fail(reply.code, reply.message);
  }
  if (reply.artifactEpoch !== shared.epoch) {
    return fail('epoch-mismatch', `the shared runtime serves epoch ${reply.artifactEpoch}, this wrapper ${shared.epoch}`);
  }
  if (reply.status !== 'ok' || !isPlainObject(reply.result) || Object.keys(reply).some((key) => !REPLY_KEYS.ok.includes(key))) {
    return shapeless();
  }
  // The server sends the canonical result it rendered, not an answer: the wrapper checks it against
  // its own contract and the envelope it validated, and projects it, exactly as for a route rendered
  // here, so nothing reaches the host that this wrapper would not have written itself.
  let checked;
  try {
    checked = checkResult(contract, envelope, resultSnapshot(reply.result, 'the shared runtime\'s result'));
  } catch (error) {
    return fail('invalid-message', `the shared runtime's result is not a legal one for ${contract.hook.event} on ${contract.host}: ${failureMessage(error)}`);
  }
  return answerFor(contract, checked);
}

// One request and its one reply over the socket: { reply }, { unavailable: why } or { timeout }.
function exchange(socket, request, limitMs, messageLimit) {
  const net = builtin('node:net');
  return new Promise((resolve) => {
    // Chunks are kept and joined once at the end: a reply may be tens of MiB.
    const received = [];
    let size = 0;
    let settled = false;
    const done = (value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      connection.destroy();
      resolve(value);
    };
    const connection = net.createConnection(socket);
    const timer = setTimeout(() => done({ timeout: true }), limitMs);
    let connected = false;
    connection.on('connect', () => {
      connected = true;
      connection.write(`${JSON.stringify(request)}\n`);
    });
    connection.on('data', (chunk) => {
      received.push(chunk);
      size += chunk.length;
      if (size > messageLimit) done({ reply: undefined });
    });
    connection.on('end', () => {
      // Closed without a byte of answer: the server left (its session ended) while it held the
      // request; another server of the install may answer it.
      if (size === 0) return done({ dropped: true });
      const text = Buffer.concat(received, size).toString('utf8');
      const newline = text.indexOf('\n');
      let reply;
      try {
        // One line, and nothing after it.
        reply = newline === text.length - 1 ? JSON.parse(text.slice(0, newline)) : undefined;
      } catch {
        reply = undefined;
      }
      done({ reply });
    });
    connection.on('error', (error) => {
      if (!connected) return done({ unavailable: error.code ?? error.message });
      done(size === 0 ? { dropped: true } : { reply: undefined });
    });
  });
}

// The host's stdout is the answer channel, so nothing but the answer may reach it. Where the host's
// shell is a POSIX one, its command hands the channel to the wrapper on another descriptor (`handed`:
// `node hooks/x.mjs 3>&1 1>&2`), so fd 1 is the host's stderr for the whole process: whatever the
// handler, its worker threads or its children write to fd 1, `/dev/stdout` or `/proc/self/fd/1` goes
// to stderr, and children do not inherit the answer's descriptor. Where one command must parse in
// every shell the host may use (PowerShell, cmd.exe and bash: the Windows forms, D17), or the host
// starts node itself (an exec form), there is no handover: the wrapper answers on fd 1, and every
// JavaScript door to fd 1 is pointed at fd 2 instead, in this thread and in every worker thread
// (`keepFdOneOffTheAnswer`), and for children (`keepChildrenOffTheAnswer`). What no JavaScript door
// reaches stays open there: a native addon's own writes to fd 1. In both, the handler's console and
// process.stdout go to stderr. Returns the writers that still reach the answer channel and stderr,
// both synchronous: `write(text)` (false when the host no longer reads it) and `log(lines)`.
function openAnswerChannel(handed, { workerThreads }) {
  const handover = handedOver(handed);
  const answerFd = handover ? handed : 1;
  const { writeSync } = fs;
  /** @type {any} */ (process.stdout).write = (chunk, encoding, callback) => process.stderr.write(chunk, encoding, callback);
  keepFdOneOffTheAnswer(fs, syncBuiltinESMExports, answerFd, !handover);
  if (!handover && workerThreads) keepWorkersOffTheAnswer();
  const writeAll = (fd, text) => {
    const bytes = Buffer.from(text, 'utf8');
    for (let offset = 0; offset < bytes.length;) {
      try {
        offset += writeSync(fd, bytes, offset, bytes.length - offset);
      } catch (/** @type {any} */ error) {
        if (error.code !== 'EAGAIN') return false;
        // A non-blocking descriptor whose pipe is full: wait a millisecond for the host to read.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      }
    }
    return true;
  };
  return {
    write: (text) => writeAll(answerFd, text),
    log: (lines) => {
      if (lines.length > 0) writeAll(2, lines.map((line) => `${line}\n`).join(''));
    },
  };
}

// Points node:fs's doors to the answer channel at stderr: a write to fd 1 or to the answer's
// descriptor (a logger's `fs.writeSync(1)`, `fs.writeFileSync(1, …)`, a stream on fd 1), and,
// without the handover (`byPath`), a file opened, written, appended or copied by one of the paths that name fd 1
// (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`, `/proc/<pid>/fd/1`, `/proc/thread-self/fd/1`),
// which is opened by the same path of fd 2. Self-contained (it uses only its arguments), because a
// worker thread runs its source too: see keepWorkersOffTheAnswer.
function keepFdOneOffTheAnswer(fs, syncBuiltinESMExports, answerFd, byPath) {
  const offAnswer = (fd) => (fd === 1 || fd === answerFd ? 2 : fd);
  for (const name of ['write', 'writeSync', 'writev', 'writevSync']) {
    const original = fs[name];
    if (typeof original === 'function') fs[name] = (fd, ...rest) => original(offAnswer(fd), ...rest);
  }
  const fdOne = /^\/(?:dev\/stdout|dev\/fd\/1|proc\/(?:self|thread-self|\d+)\/fd\/1)\/*$/;
  // A file named by descriptor (writeFileSync(1, …), which node writes without fs.writeSync) or, without
  // the handover, by one of fd 1's paths.
  const offStdout = (file) => {
    if (typeof file === 'number') return offAnswer(file);
    if (!byPath) return file;
    let text = file;
    if (file instanceof URL) text = file.protocol === 'file:' ? decodeURIComponent(file.pathname) : '';
    else if (typeof file !== 'string') text = Buffer.isBuffer(file) ? file.toString('utf8') : '';
    return fdOne.test(text.replace(/\/{2,}/g, '/')) ? '/dev/stderr' : file;
  };
  const byFile = (target, names, position) => {
    for (const name of names) {
      const original = target[name];
      if (typeof original !== 'function') continue;
      target[name] = function offTheAnswer(...args) {
        if (args.length > position) args[position] = offStdout(args[position]);
        return original.apply(this, args);
      };
    }
  };
  byFile(fs, ['open', 'openSync', 'writeFile', 'writeFileSync', 'appendFile', 'appendFileSync', 'createWriteStream'], 0);
  byFile(fs, ['copyFile', 'copyFileSync', 'cp', 'cpSync'], 1);
  byFile(fs.promises, ['open', 'writeFile', 'appendFile'], 0);
  byFile(fs.promises, ['copyFile', 'cp'], 1);
  syncBuiltinESMExports();
}

// Without the handover, a worker thread's own node:fs writes to fd 1 directly: every worker the
// handler starts runs keepFdOneOffTheAnswer first, a worker of a file through an `--import` of its
// source (node 18.18 and newer take one), a worker of code (`eval: true`, which runs no `--import`)
// through its source put before the code; its console already reaches this thread's
// process.stdout, which writes to stderr. Loaded only for handlers whose bundle may use
// worker_threads (the build knows).
function keepWorkersOffTheAnswer() {
  const threads = builtin('node:worker_threads');
  const call = `(${keepFdOneOffTheAnswer.toString()})(fs, syncBuiltinESMExports, 1, true);`;
  const module = `import fs from 'node:fs'; import { syncBuiltinESMExports } from 'node:module'; ${call}`;
  const script = `{ const fs = require('node:fs'); const { syncBuiltinESMExports } = require('node:module'); ${call} }`;
  const flag = process.allowedNodeEnvironmentFlags.has('--import')
    ? [`--import=data:text/javascript,${encodeURIComponent(module)}`]
    : [];
  const { Worker } = threads;
  threads.Worker = class Worker extends threads.Worker {
    constructor(what, options) {
      if (options?.eval && typeof what === 'string') {
        // After a 'use strict' directive, which must stay the code's first statement.
        const directive = /^\s*(['"])use strict\1;?/.exec(what)?.[0] ?? '';
        super(`${directive}${script}${what.slice(directive.length)}`, options);
      } else {
        super(what, { ...options, execArgv: [...(options?.execArgv ?? process.execArgv), ...flag] });
      }
    }
  };
  Object.defineProperty(threads.Worker, 'name', { value: Worker.name });
  syncBuiltinESMExports();
}

// Whether the command handed the answer channel over on `fd`: the descriptor is open and fd 1 is
// the same file as fd 2 (`1>&2`). Otherwise (no handover in the command, or a wrapper run by hand)
// the answer goes to fd 1.
function handedOver(fd) {
  if (!Number.isInteger(fd) || fd <= 2) return false;
  try {
    const out = fs.fstatSync(1, { bigint: true });
    const err = fs.fstatSync(2, { bigint: true });
    fs.fstatSync(fd);
    return out.dev === err.dev && out.ino === err.ino;
  } catch {
    return false;
  }
}

// A child process started with inherited stdio would write straight into fd 1: whatever of its
// stdio is fd 1 (`'inherit'` for its stdout, `1`, process.stdout) is fd 2 instead. Loaded only for
// handlers whose bundle may start child processes (the build knows), so other hooks do not pay for
// the module.
function keepChildrenOffTheAnswer() {
  const childProcess = builtin('node:child_process');
  const offStdout = (stdio) => {
    const list = typeof stdio === 'string' ? [stdio, stdio, stdio] : Array.isArray(stdio) ? [...stdio] : undefined;
    if (list === undefined) return stdio;
    return list.map((entry, index) => (entry === 1 || entry === process.stdout || (index === 1 && entry === 'inherit') ? 2 : entry));
  };
  const { spawn } = childProcess.ChildProcess.prototype;
  childProcess.ChildProcess.prototype.spawn = function spawnOffTheAnswer(options) {
    return spawn.call(this, options && typeof options === 'object' ? { ...options, stdio: offStdout(options.stdio) } : options);
  };
  for (const name of ['spawnSync', 'execSync', 'execFileSync']) {
    const original = childProcess[name];
    childProcess[name] = (...args) => {
      const last = args.at(-1);
      if (last && typeof last === 'object' && !Array.isArray(last) && last.stdio !== undefined) {
        args[args.length - 1] = { ...last, stdio: offStdout(last.stdio) };
      }
      return original(...args);
    };
  }
  syncBuiltinESMExports();
}

// Reads stdin to its end. Past `limit` bytes the rest is still read (so the host's write completes)
// but not kept, and the hook fails: an envelope too large to judge is never taken as nothing to say.
// A handler that reads stdin itself, as a hook script does, gets the envelope the wrapper read (to
// the end, before the handler loaded): every JavaScript way of reading fd 0 (node:fs by descriptor
// or by /dev/stdin, and process.stdin) is served these bytes again, from the start. Installed only
// for handlers whose bundle reads stdin (the build knows).
function serveStdinAgain(bytes) {
  const isStdin = (file) =>
    file === 0
    || file === '/dev/stdin'
    || (file instanceof URL && file.href === 'file:///dev/stdin');
  const served = (options) => {
    const encoding = typeof options === 'string' ? options : options?.encoding;
    return encoding ? bytes.toString(encoding) : Buffer.from(bytes);
  };
  // Node's own functions, replaced and called through with whatever arguments they were given.
  const { readFileSync: fileSync, readSync, readFile } = /** @type {any} */ (fs);
  const patched = /** @type {any} */ (fs);
  patched.readFileSync = function readFileSync(file, options) {
    return isStdin(file) ? served(options) : fileSync.apply(this, arguments);
  };
  patched.readFile = function (file, options, callback) {
    if (!isStdin(file)) return readFile.apply(this, arguments);
    const done = typeof options === 'function' ? options : callback;
    const value = served(typeof options === 'function' ? undefined : options);
    process.nextTick(() => done(null, value));
  };
  const promised = patched.promises.readFile;
  patched.promises.readFile = function (file, options) {
    return isStdin(file) ? Promise.resolve(served(options)) : promised.apply(this, arguments);
  };
  // readSync(0, buffer, offset?, length?, position?) or readSync(0, buffer, { offset, length }):
  // the bytes in order, then 0 (the end), as a pipe reads.
  let next = 0;
  patched.readSync = function (fd, buffer, offsetOrOptions, length) {
    if (fd !== 0) return readSync.apply(this, arguments);
    const options = typeof offsetOrOptions === 'object' && offsetOrOptions !== null ? offsetOrOptions : { offset: offsetOrOptions, length };
    const offset = options.offset ?? 0;
    const room = Math.min(options.length ?? buffer.byteLength - offset, buffer.byteLength - offset);
    const count = Math.max(0, Math.min(room, bytes.length - next));
    bytes.copy(Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength), offset, next, next + count);
    next += count;
    return count;
  };
  syncBuiltinESMExports();
  let stream;
  Object.defineProperty(process, 'stdin', /** @type {PropertyDescriptor} */ ({
    __proto__: null,
    configurable: true,
    enumerable: true,
    get: () => {
      if (stream === undefined) {
        const { Readable } = builtin('node:stream');
        stream = new Readable({
          read() {
            this.push(bytes);
            this.push(null);
          },
        });
        stream.fd = 0;
      }
      return stream;
    },
  }));
}

function detachedRun(contract, ownFile, bytes) {
  return detachedNode([fileURLToPath(ownFile)], bytes, { ...process.env, [DETACHED]: contract.hook.id });
}

// Starts node with `args` in a process of its own that outlives this one (detached, unreferenced,
// its output ignored) and hands it `input` on its stdin. Resolves once the input is handed over,
// before this process may exit; a child that fails to start is reported by the promise's rejection
// (the hook then fails with its policy).
function detachedNode(args, input, env = process.env) {
  const { spawn } = builtin('node:child_process');
  const child = spawn(process.execPath, args, {
    detached: true,
    windowsHide: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env,
  });
  child.unref();
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdin.once('error', reject);
    child.stdin.end(input, () => resolve(undefined));
  });
}

async function readStdin(limit) {
  const chunks = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  if (size > limit) {
    throw new HookError(`the envelope on stdin is ${size} bytes, more than this hook's limit of ${limit} bytes (maxInputBytes), so it is too large to judge`);
  }
  return Buffer.concat(chunks);
}
