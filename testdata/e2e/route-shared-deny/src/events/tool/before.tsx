// Denies every shell command from the shared runtime, naming the process and how many calls it has
// seen, so the suite can tell the MCP server answered.
import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteConfig, AgentEventRouteProps } from 'agent-bundle';

export const config = { runtime: 'shared', tools: ['shell'] } satisfies AgentEventRouteConfig;

let seen = 0;

export default async function SharedGuard({ canonical }: AgentEventRouteProps<'tool/before'>) {
  seen += 1;
  const input = canonical.payload.toolInput?.value as { command?: unknown } | undefined;
  const command = typeof input?.command === 'string' ? input.command : '';
  return <Agent.Result value={{ outcome: 'deny', reason: `E2E_SHARED_DENY (${seen} in pid ${process.pid}): not running ${command}` }} />;
}
