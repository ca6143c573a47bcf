// Counts the shell calls it has seen in this process; denies a command that asks for it.
import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteConfig, AgentEventRouteProps } from 'agent-bundle';

export const config = {
  runtime: 'shared',
  fallback: 'standalone',
  tools: ['shell'],
} satisfies AgentEventRouteConfig;

let seen = 0;

export default async function CountingGuard({ canonical }: AgentEventRouteProps<'tool/before'>) {
  seen += 1;
  const input = canonical.payload.toolInput?.value as { command?: unknown } | undefined;
  const command = typeof input?.command === 'string' ? input.command : '';
  if (command.includes('throw-me')) throw new Error('the guard failed on purpose');
  if (command.includes('deny-me')) {
    return <Agent.Result value={{ outcome: 'deny', reason: `E2E_SHARED_DENY after ${seen} call(s) in process ${process.pid}` }} />;
  }
  return <Agent.Context>{`call ${seen} in process ${process.pid}`}</Agent.Context>;
}
