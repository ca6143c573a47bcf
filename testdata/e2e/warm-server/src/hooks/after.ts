import { isMainThread } from 'node:worker_threads';

export default () => ({
  additionalContext: `E2E_WARM_AFTER: context after the tool, from ${isMainThread ? 'a process of its own' : 'the warm server'}`,
});
