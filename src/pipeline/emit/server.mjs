// The agent-bundle shared route runtime, written into an artifact whose routes ask for
// `runtime: 'shared'`. The host starts it as the plugin's MCP server (stdio); besides answering MCP,
// it owns a per-user Unix socket on which the route wrappers forward validated envelopes, and renders
// the routes in this one long-lived process, so a route's module state lives across deliveries. Do
// not edit: the next build rewrites this file.
//
// Socket: <runtime dir>/event-<hex>.sock (the folder this user's own with mode 0700, checked with
// lstat or created here; the socket 0600), <hex> a hash of the endpoint id `<artifact epoch>:<install
// root>`; one server per install serves every host. A second server of the same install stands by and
// takes over when the owner exits. Protocol (version 1): one newline-terminated JSON message each way
// per connection, at most 1 MiB; the reply carries the checked result, which the wrapper projects.

import fs from 'node:fs';
import net from 'node:net';
import { Worker } from 'node:worker_threads';
import { createHash, randomUUID } from 'node:crypto';
import {
  UNTRUSTED_HINT, checkedResult, claimAlive, claimHolderAlive, decodeRequest, endpointPaths, failureMessage,
  folderProblem, messageLimit as routeMessageLimit, processStart, socketAddress,
} from '../hooks/agent-bundle-runtime.mjs';

const PROTOCOL_VERSION = 1;
const REQUEST_KEYS = ['protocolVersion', 'artifactEpoch', 'event', 'hostContractRevision', 'target', 'native'];
const PROBE_MS = 1000;
// A connection has this long to send its one complete request.
const REQUEST_MS = 5000;
// At most this many connections are open at once (each holds a descriptor). When all are taken, a
// newcomer is still accepted: the oldest connection that has not sent its whole request yet (idle, or
// holding part of one) is closed to make room, without an answer. Only when every connection holds a
// request being rendered is the newcomer refused (runtime-failed).
const MAX_CONNECTIONS = 64;
// How long past the longest route budget a connection waits for its reply, and a reply for its reader.
const GRACE_MS = 1000;

export async function serve(options) {
  const warm = new WarmHooks(options.hooks ?? {});
  // A server of config hooks alone (`bundle.warmServer`, no shared route) serves MCP and no socket.
  if (Object.keys(options.routes).length === 0) {
    serveMcp(options, warm, () => process.exit(0));
    return;
  }
  await new SharedServer(options, warm).start();
}

// The name of the MCP tool by which a host calls a config hook in this server (`mcp_tool` hooks).
const HOOK_TOOL = 'hook';
// A warm hook's worker: the runtime's serveWarmHook on the hook's wrapper module.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
import(workerData.runtime).then((runtime) => runtime.serveWarmHook(workerData.wrapper));
`;

// The config hooks this server answers (the host's `mcp_tool` entries): each in a worker thread of
// its own, started at its first call and kept warm, so a handler's module state lives across calls
// and one hook that spins or hangs holds no other (D18). A call past the hook's deadline ends its
// worker (the next call starts a new one) and fails the hook: the host then lets the call go on, as
// it does when a command hook fails (the plan puts no fail-closed hook here).
class WarmHooks {
  constructor(hooks) {
    /** @type {Record<string, { wrapper: string, deadlineMs: number }>} */
    this.hooks = hooks;
    /** @type {Map<string, { worker: Worker, calls: Map<number, (answer: any) => void> }>} */
    this.workers = new Map();
    this.nextId = 1;
    this.runtime = new URL('../hooks/agent-bundle-runtime.mjs', import.meta.url).href;
  }

  get names() {
    return Object.keys(this.hooks);
  }

  worker(name) {
    const running = this.workers.get(name);
    if (running) return running;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { runtime: this.runtime, wrapper: this.hooks[name].wrapper },
      // What a handler prints is not the MCP channel's: it goes to this server's stderr.
      stdout: true,
      stderr: true,
    });
    worker.stdout.pipe(process.stderr);
    worker.stderr.pipe(process.stderr);
    worker.unref();
    const calls = new Map();
    const entry = { worker, calls };
    const fail = (message) => {
      if (this.workers.get(name) === entry) this.workers.delete(name);
      for (const settle of calls.values()) settle({ code: 1, stdout: undefined, stderr: [message] });
      calls.clear();
    };
    worker.on('message', (message) => {
      if (message.ready === true) return;
      const settle = calls.get(message.id);
      calls.delete(message.id);
      settle?.(message);
    });
    worker.on('error', (error) => fail(`Agent Bundle hook error: ${name}: the hook's worker failed: ${error?.message ?? error}`));
    worker.on('exit', (code) => fail(`Agent Bundle hook error: ${name}: the hook's worker ended (exit ${code})`));
    this.workers.set(name, entry);
    return entry;
  }

  // The hook `name`'s answer to `fields` (the hook input as the host's entry interpolated it):
  // `{ code, stdout, stderr }`.
  call(name, fields) {
    const hook = this.hooks[name];
    if (hook === undefined) {
      return Promise.resolve({ code: 1, stdout: undefined, stderr: [`Agent Bundle hook error: this server answers no hook named ${JSON.stringify(name)}`] });
    }
    const entry = this.worker(name);
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        entry.calls.delete(id);
        resolve({ code: 1, stdout: undefined, stderr: [`Agent Bundle hook error: ${name}: the hook did not answer within ${hook.deadlineMs} ms; its worker is ended`] });
        // Ending it ends its other calls too: they fail now, each as its own late answer would.
        if (this.workers.get(name) === entry) this.workers.delete(name);
        void entry.worker.terminate();
      }, hook.deadlineMs);
      timer.unref?.();
      entry.calls.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      entry.worker.postMessage({ id, fields, arrived: Date.now() });
    });
  }
}

// The shared runtime of one install: its limits, its connections, its claim on the endpoint.
class SharedServer {
  constructor({ name, version, epoch, routes, root }, warm) {
    this.warm = warm;
    this.name = name;
    this.version = version;
    this.epoch = epoch;
    this.routes = routes;
    const { dir, socket, lock, standbyPrefix } = endpointPaths(epoch, root);
    this.dir = dir;
    this.socket = socket;
    this.lock = lock;
    // A standby's marker: wrappers that find no socket wait for a live standby's takeover (runtime.mjs).
    this.marker = `${dir}/${standbyPrefix}${process.pid}`;
    const contracts = Object.values(routes).flatMap((route) => Object.values(route.contracts));
    // The largest message any of this server's routes may be sent (their maxInputBytes).
    this.messageLimit = Math.max(routeMessageLimit(0), ...contracts.map((contract) => routeMessageLimit(contract.hook.maxInputBytes)));
    // The bytes of unfinished requests held at once, over every connection: one largest message's
    // worth (a request that large still fits, alone).
    this.pendingLimit = Math.max(16 * 1024 * 1024, this.messageLimit);
    // A request's connection is closed this long after its arrival, answered or not: the wrapper has
    // stopped waiting by then.
    this.replyLimit = Math.max(0, ...contracts.map((contract) => contract.hook.route.budgetMs)) + GRACE_MS;
    this.instanceId = randomUUID();
    this.startedAt = new Date().toISOString();
    // What this server's claims (the lock, its standby marker, its reclaim guards) say: its pid and,
    // where the system tells, its start time, so a later process with the same pid is not taken for it.
    const claimText = JSON.stringify({ pid: process.pid, startTime: processStart(process.pid)?.startTime, instanceId: this.instanceId });
    this.endpoint = { dir, socket, lock, instanceId: this.instanceId, claimText };
    /** @type {net.Server | undefined} */
    this.server = undefined;
    /** @type {number | undefined} */
    this.boundInode = undefined;
    this.owner = false;
    this.stopping = false;
    this.exitCode = 0;
    // Every open connection, and of them, oldest first, those whose request is not yet whole (each
    // mapped to the function that evicts it).
    /** @type {Set<net.Socket>} */
    this.connections = new Set();
    /** @type {Map<net.Socket, () => void>} */
    this.unfinished = new Map();
    // The bytes of unfinished requests held now, over every connection.
    this.pending = 0;
  }

  log(line) {
    process.stderr.write(`agent-bundle runtime: ${line}\n`);
  }

  error(code, message) {
    return protocolError(this.epoch, code, message);
  }

  // Serves MCP on stdio, then owns the socket, or stands by to take it over.
  async start() {
    // The MCP side: JSON-RPC 2.0 over stdio, one message per line.
    serveMcp({ name: this.name, version: this.version }, this.warm, () => this.stop(0));
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => this.stop(0));
    // The marker goes first: from before the claim until the listen, a wrapper that finds no socket
    // knows a server is coming. A folder that is not this user's own is never used: the server says
    // why and exits, and the host reports its MCP server failed.
    try {
      prepareFolder(this.dir);
      putClaim(this.endpoint, this.marker, false);
    } catch (/** @type {any} */ failure) {
      this.log(`refusing to serve: ${failure.message}`);
      this.stop(1);
      return;
    }
    try {
      if (await this.become()) return;
      this.log(`${this.socket} is owned by another process; standing by`);
    } catch (/** @type {any} */ failure) {
      this.log(`claiming ${this.socket} failed: ${failure.message}; standing by`);
    }
    this.standBy();
  }

  // One request per connection: its line, nothing after it, within REQUEST_MS of the connection; the
  // reply ends the connection. At most MAX_CONNECTIONS at once, and pendingLimit bytes of unfinished
  // requests over all of them.
  //
  // Stalled clients (a wrapper killed or hung mid-send, or anything that connects and sends nothing)
  // never starve a real request: a wrapper sends its whole request as soon as it is connected, so
  // what must give way when the limits are reached is the connection that has been waiting longest
  // without a whole request, not the newcomer. Such a connection is evicted: closed without an
  // answer, as a server that leaves drops what it has not taken. Its request was never rendered, so
  // a wrapper whose connection that was asks again (runtime.mjs: `dropped`, within its budget) while
  // the server lives. A connection whose request is whole is never evicted: its route is rendering
  // and its answer is owed. Descriptors stay bounded (MAX_CONNECTIONS), and so does memory: the bytes
  // of unfinished requests (pendingLimit, the oldest evicted first when over) and the kernel's
  // listen backlog, from which every newcomer is taken at once.
  evictOldest(except) {
    for (const [connection, evict] of this.unfinished) {
      if (connection !== except) {
        evict();
        return true;
      }
    }
    return false;
  }

  accept(connection) {
    connection.on('error', () => {});
    if (this.connections.size >= MAX_CONNECTIONS && !this.evictOldest(connection)) {
      const message = `the shared runtime has ${MAX_CONNECTIONS} connections open, its limit, each with a whole request; try again`;
      closeWith(connection, this.error('runtime-failed', message));
      return;
    }
    this.connections.add(connection);
    new PendingRequest(this, connection);
  }

  // A connection is gone: its slot goes, and a stopping server whose last connection it was exits.
  forget(connection) {
    if (!this.connections.delete(connection)) return false;
    if (this.stopping && this.connections.size === 0) setImmediate(() => process.exit(this.exitCode));
    return true;
  }

  listen() {
    return new Promise((resolve, reject) => {
      // The lock is this server's: a socket at the path is a dead owner's.
      try { fs.unlinkSync(this.socket); } catch {}
      // Its address (a path too long for one is reached through the folder's descriptor), the same the
      // wrappers connect to.
      const address = socketAddress(this.dir, this.socket);
      const server = net.createServer((connection) => this.accept(connection));
      this.server = server;
      server.once('error', reject);
      server.listen(address, () => {
        // Whatever fails here is a failed listen (the caller stands by), never an uncaught exception.
        try {
          fs.chmodSync(this.socket, 0o600);
          this.boundInode = fs.lstatSync(this.socket).ino;
        } catch (failure) {
          reject(failure);
          return;
        }
        server.removeListener('error', reject);
        // A failed accept (out of descriptors) is logged, not thrown: the server goes on.
        server.on('error', (/** @type {any} */ failure) => this.log(`the socket failed: ${failure.code ?? failure.message}`));
        resolve(undefined);
      });
    });
  }

  unmark() {
    try { fs.unlinkSync(this.marker); } catch {}
  }

  releaseLock() {
    try {
      const held = JSON.parse(fs.readFileSync(this.lock, 'utf8'));
      if (held.instanceId === this.instanceId) fs.unlinkSync(this.lock);
    } catch {}
  }

  release() {
    this.unmark();
    if (!this.owner) return;
    this.owner = false;
    try {
      if (fs.lstatSync(this.socket).ino === this.boundInode) fs.unlinkSync(this.socket);
    } catch {}
    this.releaseLock();
  }

  // Stops: the socket and the lock go first (a standby takes over, no new connection arrives), then
  // the requests already taken are answered before the process exits, within the longest reply limit:
  // a guard's request never dies with the session that served it.
  stop(code = 0) {
    if (this.stopping) return;
    this.stopping = true;
    this.exitCode = code;
    this.release();
    this.server?.close();
    if (this.connections.size === 0) process.exit(this.exitCode);
    setTimeout(() => process.exit(this.exitCode), this.replyLimit + GRACE_MS).unref();
  }

  // Claims the endpoint and listens on it: false when another process owns it.
  async become() {
    if (!claimEndpoint(this.endpoint)) return false;
    try {
      await this.listen();
    } catch (/** @type {any} */ failure) {
      // Another process bound the path after all (EADDRINUSE): the lock goes, this server stands by.
      this.server?.close();
      this.server = undefined;
      this.releaseLock();
      throw new Error(`cannot listen on ${this.socket} (${failure.code ?? failure.message})`);
    }
    this.owner = true;
    this.unmark();
    return true;
  }

  // The takeover: at once when the owner's lock goes (a watch on the folder), and on a probe every
  // second besides (a watch can miss events, and an owner killed by SIGKILL removes nothing).
  standBy() {
    let trying = false;
    /** @type {fs.FSWatcher | undefined} */
    let watcher;
    /** @type {NodeJS.Timeout | undefined} */
    let probe;
    const retry = async () => {
      if (this.stopping || this.owner || trying) return;
      trying = true;
      try {
        if (await this.become()) {
          watcher?.close();
          clearTimeout(probe);
          this.log(`${this.socket} was released by its owner; took it over`);
          return;
        }
      } catch (/** @type {any} */ failure) {
        this.log(`taking over ${this.socket} failed: ${failure.message}`);
      } finally {
        trying = false;
      }
      clearTimeout(probe);
      probe = setTimeout(retry, PROBE_MS + Math.floor(Math.random() * 250));
    };
    const lockName = this.lock.slice(this.dir.length + 1);
    try {
      watcher = fs.watch(this.dir, (_, file) => {
        if (file === null || file === lockName) retry();
      });
      watcher.on('error', () => {});
    } catch {}
    probe = setTimeout(retry, PROBE_MS + Math.floor(Math.random() * 250));
  }
}

// Ends a connection with one message; a reader that never reads does not keep it.
function closeWith(connection, value) {
  connection.end(`${JSON.stringify(value)}\n`, () => connection.destroy());
  setTimeout(() => connection.destroy(), GRACE_MS).unref();
}

// One connection's request: its bytes until the line is whole, then its answer, within the limits.
class PendingRequest {
  constructor(server, connection) {
    /** @type {SharedServer} */
    this.server = server;
    /** @type {net.Socket} */
    this.connection = connection;
    /** @type {Buffer[]} */
    this.chunks = [];
    this.size = 0;
    // The bytes of this connection counted in the server's `pending`.
    this.held = 0;
    this.requested = false;
    this.done = false;
    /** @type {NodeJS.Timeout | undefined} */
    this.overdue = undefined;
    this.idle = setTimeout(
      () => this.reply(server.error('invalid-message', `no complete request within ${REQUEST_MS} ms`)),
      REQUEST_MS,
    );
    server.unfinished.set(connection, () => {
      this.forget();
      connection.destroy();
    });
    connection.once('close', () => this.forget());
    connection.on('data', (chunk) => this.receive(chunk));
  }

  unhold() {
    this.server.pending -= this.held;
    this.held = 0;
  }

  // Nothing more is read from the connection: its bytes and timers go.
  finish() {
    this.done = true;
    this.server.unfinished.delete(this.connection);
    clearTimeout(this.idle);
    clearTimeout(this.overdue);
    this.unhold();
    this.chunks = [];
  }

  // Forgets the connection (its slot as well); the first call counts.
  forget() {
    if (this.server.forget(this.connection)) this.finish();
  }

  reply(value) {
    if (this.done) return;
    this.finish();
    closeWith(this.connection, value);
  }

  receive(chunk) {
    const { server } = this;
    if (this.done) return;
    if (this.requested) {
      this.reply(server.error('invalid-message', 'one request per connection: the connection sent more after its request'));
      return;
    }
    // Only the new chunk is searched for the newline, and the chunks are joined once it is found:
    // a request may be tens of MiB.
    const inChunk = chunk.indexOf(10);
    const newline = inChunk === -1 ? -1 : this.size + inChunk;
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.held += chunk.length;
    server.pending += chunk.length;
    if (newline === -1 && this.size <= server.messageLimit) {
      // Over the limit: the oldest unfinished requests give way, then this one if it is still over
      // (it is not: one message fits in pendingLimit).
      while (server.pending > server.pendingLimit && server.evictOldest(this.connection));
      if (server.pending > server.pendingLimit) {
        this.reply(server.error('runtime-failed', `the shared runtime holds ${server.pendingLimit} bytes of unfinished requests, its limit; try again`));
      }
      return;
    }
    if (newline === -1 || newline > server.messageLimit) {
      this.reply(server.error('invalid-message', `a message is at most ${server.messageLimit} bytes`));
      return;
    }
    if (this.size > newline + 1) {
      this.reply(server.error('invalid-message', 'one request per connection: the connection sent more after its request'));
      return;
    }
    this.answer(newline);
  }

  // The request's line is whole: it is parsed and answered, by the reply limit at the latest.
  answer(newline) {
    const { server } = this;
    this.requested = true;
    server.unfinished.delete(this.connection);
    clearTimeout(this.idle);
    const arrivedAt = performance.now();
    let request;
    try {
      request = JSON.parse(Buffer.concat(this.chunks, this.size).subarray(0, newline).toString('utf8'));
    } catch {
      request = undefined;
    }
    this.chunks = [];
    this.unhold();
    this.overdue = setTimeout(
      () => this.reply(server.error('runtime-failed', `no answer within ${server.replyLimit} ms of the request`)),
      server.replyLimit,
    );
    answerRequest(server, request, arrivedAt).then(
      (value) => this.reply(value),
      () => this.reply(server.error('runtime-failed', 'event route rendering failed')),
    );
  }
}

function protocolError(epoch, code, message) {
  return { status: 'error', protocolVersion: PROTOCOL_VERSION, artifactEpoch: epoch, code, message };
}

// The protocol's answer to one request (a status probe, or a route's checked result), or its error.
// `arrivedAt`: when the request's line was received (performance clock), from which the route's
// budget counts (D13); this process may have been up for hours.
async function answerRequest({ epoch, routes, instanceId, startedAt }, request, arrivedAt) {
  const error = (code, message) => protocolError(epoch, code, message);
  if (request?.kind === 'status' && request.protocolVersion === PROTOCOL_VERSION && Object.keys(request).length === 2) {
    return {
      kind: 'status',
      protocolVersion: PROTOCOL_VERSION,
      status: 'ok',
      runtime: { artifactEpoch: epoch, availability: 'available', instanceId, pid: process.pid, startedAt },
    };
  }
  if (!isObject(request) || Object.keys(request).length !== REQUEST_KEYS.length
    || !REQUEST_KEYS.every((key) => Object.hasOwn(request, key))
    || request.protocolVersion !== PROTOCOL_VERSION || typeof request.artifactEpoch !== 'string'
    || typeof request.event !== 'string' || typeof request.target !== 'string'
    || typeof request.hostContractRevision !== 'string' || !isObject(request.native)) {
    return error('invalid-message', 'the request does not have the protocol\'s shape');
  }
  if (request.artifactEpoch !== epoch) {
    return error('epoch-mismatch', `this runtime serves epoch ${epoch}; the request is for ${request.artifactEpoch}`);
  }
  const route = Object.hasOwn(routes, request.event) ? routes[request.event] : undefined;
  const contract = route && Object.hasOwn(route.contracts, request.target) ? route.contracts[request.target] : undefined;
  if (!contract || contract.revision !== request.hostContractRevision) {
    return error('invalid-message', `no shared ${request.event} route for ${request.target} (${request.hostContractRevision})`);
  }
  let payload;
  try {
    payload = decodeRequest(contract, request.native);
  } catch (failure) {
    return error('invalid-message', `the request's envelope is not one ${request.target} sends: ${failureMessage(failure)}`);
  }
  // The checked result, not an answer: the wrapper checks it against its own contract and
  // projects it, as it does a result of its own (a decision that blocks blocks there).
  try {
    const result = await checkedResult(contract, request.native, payload, route.load, arrivedAt);
    return { status: 'ok', protocolVersion: PROTOCOL_VERSION, artifactEpoch: epoch, result };
  } catch (failure) {
    return error('runtime-failed', failureMessage(failure));
  }
}

// A claim file (the lock, a marker, a guard) is written whole: to a temporary file first, then
// linked into place (`exclusive`: false when the path exists) or renamed over it, so a reader never
// sees half of one.
let temporaries = 0;
function putClaim({ socket, instanceId, claimText }, path, exclusive) {
  // Named after this server, not after the claim: no other server's sweep matches it.
  const temporary = `${socket}.tmp-${instanceId}-${(temporaries += 1)}`;
  fs.writeFileSync(temporary, claimText, { mode: 0o600, flag: 'wx' });
  try {
    if (!exclusive) {
      fs.renameSync(temporary, path);
      return true;
    }
    try {
      fs.linkSync(temporary, path);
      return true;
    } catch (/** @type {any} */ failure) {
      if (failure.code === 'EEXIST') return false;
      throw failure;
    }
  } finally {
    try { fs.unlinkSync(temporary); } catch {}
  }
}

// A claim file's inode and text, read without following a link; undefined when it is gone. One
// that cannot be read as a file (a link, a folder) is read as empty: nobody's.
function readClaim(path) {
  let fd;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (/** @type {any} */ failure) {
    if (failure.code === 'ENOENT') return undefined;
    return { ino: fs.lstatSync(path, { throwIfNoEntry: false })?.ino ?? 0, text: '' };
  }
  try {
    const { ino } = fs.fstatSync(fd);
    let text = '';
    try { text = fs.readFileSync(fd, 'utf8'); } catch {}
    return { ino, text };
  } finally {
    fs.closeSync(fd);
  }
}

// Replaces the stale lock `seen` (its inode and text), so that of all the servers that judged this
// same lock stale exactly one replaces it. Each first creates, exclusively, a guard named after that
// lock, and replaces the lock only if it is still the one judged stale; the others find the guard
// held and stand by. A guard whose holder died (killed in between) is passed over for the next one.
// Nothing is ever removed that another server may have just written: the lock is replaced by a
// rename, and a guard outlives nothing it guards (its lock's text names a process that is gone).
// 'taken', 'lost' (another server takes it) or 'changed' (it is not the lock judged: look again).
function takeStale(endpoint, seen) {
  const { dir, lock } = endpoint;
  const id = createHash('sha256').update(`${seen.ino}:${seen.text}`).digest('hex').slice(0, 16);
  const guardName = `${lock.slice(dir.length + 1)}.next-${id}-`;
  for (let n = 0; n < 8; n += 1) {
    const guard = `${dir}/${guardName}${n}`;
    if (!putClaim(endpoint, guard, true)) {
      if (claimAlive(guard)) return 'lost';
      continue;
    }
    try {
      const now = readClaim(lock);
      if (now === undefined) return putClaim(endpoint, lock, true) ? 'taken' : 'changed';
      if (now.ino !== seen.ino || now.text !== seen.text) return 'changed';
      if (fs.lstatSync(lock, { throwIfNoEntry: false })?.isDirectory()) {
        // A folder where the lock goes, which no server makes: nobody's. Cleared (in this user's
        // own folder, under the guard), then claimed like an absent lock.
        fs.rmSync(lock, { recursive: true, force: true });
        return putClaim(endpoint, lock, true) ? 'taken' : 'changed';
      }
      putClaim(endpoint, lock, false);
      return 'taken';
    } finally {
      // This stale lock's guards, this one and those of holders that died, are done with.
      for (const file of fs.readdirSync(dir)) {
        if (file.startsWith(guardName) && /^\d+$/.test(file.slice(guardName.length))) {
          try { fs.unlinkSync(`${dir}/${file}`); } catch {}
        }
      }
    }
  }
  return 'lost';
}

// The runtime folder, created here (mode 0700) or, when it exists, checked with lstat (a real
// folder of this user's, mode 0700): nothing is made in, or followed to, a folder another user
// could have put there.
function prepareFolder(dir) {
  let made = false;
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
    made = true;
  } catch (/** @type {any} */ failure) {
    if (failure.code !== 'EEXIST') throw new Error(`the runtime folder ${dir} cannot be created (${failure.code ?? failure.message})`);
  }
  // A folder made here gets 0700 whatever the umask took from it.
  if (made && fs.lstatSync(dir).isDirectory()) fs.chmodSync(dir, 0o700);
  const problem = folderProblem(dir);
  if (problem !== undefined) {
    throw new Error(`${problem === 'missing' ? `the runtime folder ${dir} is gone` : problem}; ${UNTRUSTED_HINT}`);
  }
}

// Claims the endpoint: an exclusive lock file naming this process, then the socket. A lock whose
// holder is gone (or that names nobody: empty, garbled) is stale and replaced; a live one means
// another server owns the endpoint.
//
// An empty or cut-short lock is never one a live server is writing: a server writes its claim
// whole into a temporary file of its own name first and only then links (or renames) it into
// place, both atomic, so the lock's path names either no file or a whole claim. What leaves one
// empty or partial is outside any live server: a machine that went down after the link reached the
// disk and before the data did (file systems journal names before data), a person or a tool, a
// copy. Such a lock is judged stale like a dead pid's, and is still replaced only under the guard
// of takeStale, and only while it is the very file (inode and text) that was judged, so a claim
// another server wrote in between is never touched. Other stale forms take the same path: garbage,
// a dead or reused pid, a lock of another mode or owner (replaced by a rename in this user's own
// folder), a FIFO or a socket (read as empty without waiting: O_NONBLOCK), a link (not followed),
// a folder (cleared under the guard).
function claimEndpoint(endpoint) {
  const { lock } = endpoint;
  prepareFolder(endpoint.dir);
  for (let attempt = 0; attempt < 4; attempt += 1) {
    if (putClaim(endpoint, lock, true)) return true;
    const seen = readClaim(lock);
    // Released in between: claim it again.
    if (seen === undefined) continue;
    if (claimHolderAlive(seen.text)) return false;
    const taken = takeStale(endpoint, seen);
    if (taken !== 'changed') return taken === 'taken';
  }
  return false;
}

function serveMcp({ name, version }, warm, stop) {
  let buffered = '';
  // Stdout is the MCP channel: what routes print goes to stderr.
  const writeMcp = process.stdout.write.bind(process.stdout);
  /** @type {any} */ (process.stdout).write = (chunk, encoding, callback) => process.stderr.write(chunk, encoding, callback);
  const send = (message) => writeMcp(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const handle = (message) => {
    if (!isObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
      if (isObject(message) && Object.hasOwn(message, 'id')) send({ id: message.id, error: { code: -32600, message: 'Invalid Request' } });
      return;
    }
    const respond = Object.hasOwn(message, 'id');
    switch (message.method) {
      case 'initialize':
        send({
          id: message.id,
          result: {
            protocolVersion: typeof message.params?.protocolVersion === 'string' ? message.params.protocolVersion : '2025-06-18',
            capabilities: { tools: {} },
            serverInfo: { name, version },
          },
        });
        return;
      case 'ping':
        if (respond) send({ id: message.id, result: {} });
        return;
      case 'tools/list':
        send({ id: message.id, result: { tools: warm.names.length === 0 ? [] : [hookTool(warm.names)] } });
        return;
      case 'tools/call': {
        const params = isObject(message.params) ? message.params : {};
        const args = isObject(params.arguments) ? params.arguments : {};
        if (params.name !== HOOK_TOOL || typeof args.hook !== 'string') {
          send({ id: message.id, error: { code: -32602, message: `Unknown tool: ${String(params.name)}` } });
          return;
        }
        const { hook, ...fields } = args;
        warm.call(hook, fields).then(({ code, stdout, stderr }) => {
          for (const line of stderr) process.stderr.write(`${line}\n`);
          // Read by the host as a command hook's stdout; a failure (any other exit) is the tool's error.
          const failed = code !== 0;
          const text = failed ? stderr.join('\n') : (stdout ?? '');
          send({ id: message.id, result: { content: text === '' ? [] : [{ type: 'text', text }], isError: failed } });
        });
        return;
      }
      default:
        if (respond) send({ id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
    }
  };
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line === '') continue;
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        send({ id: null, error: { code: -32700, message: 'Parse error' } });
        continue;
      }
      handle(message);
    }
  });
  // The host closes stdin when its session ends: so does this server.
  process.stdin.on('end', stop);
}

// The MCP tool a host's `mcp_tool` entries call: its arguments are the hook's name and the host's
// hook input, field by field, as the entry's `input` interpolates it.
function hookTool(names) {
  return {
    name: HOOK_TOOL,
    description: 'Runs one of this plugin\'s hooks on the host\'s hook input (called by the host\'s mcp_tool hooks, not by the model).',
    inputSchema: {
      type: 'object',
      properties: { hook: { type: 'string', enum: names } },
      required: ['hook'],
      additionalProperties: true,
    },
    // For the host's hook entries, not the model: a host that reads MCP Apps' visibility (Claude Code
    // 2.1.332) keeps the tool from the model's tool list.
    _meta: { ui: { visibility: ['app'] } },
  };
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
