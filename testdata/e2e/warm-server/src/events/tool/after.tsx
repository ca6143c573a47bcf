// The event route after the shell tool: context for the model, answered by the warm server too.
import { Agent } from '@agent-bundle/runtime';
import { isMainThread } from 'node:worker_threads';

export const config = { tools: ['shell'] };

export default async function ToolAfter() {
  return <Agent.Context>{`E2E_WARM_ROUTE: from ${isMainThread ? 'a process of its own' : 'the warm server'}`}</Agent.Context>;
}
