import { isMainThread } from 'node:worker_threads';

// Denies a command that says E2E_GO_AWAY, naming where it ran: the warm server runs it in a worker.
export default ({ toolInput }: { toolInput: { command?: string } }) =>
  String(toolInput.command ?? '').includes('E2E_GO_AWAY')
    ? { outcome: 'deny', reason: `E2E_WARM_DENY from ${isMainThread ? 'a process of its own' : 'the warm server'}` }
    : undefined;
