// The event route: the shell tool's before-tool event, refusing a force push (not fail-closed).
import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteProps } from 'agent-bundle';

export const config = { tools: ['shell'] };

export default async function ToolBefore({ canonical }: AgentEventRouteProps<'tool/before'>) {
  const input = canonical.payload.toolInput?.value as { command?: unknown } | undefined;
  const command = typeof input?.command === 'string' ? input.command : '';
  if (!/\bgit\s+push\s+(-f|--force)\b/.test(command)) return null;
  return <Agent.Result value={{ outcome: 'deny', reason: 'Use --force-with-lease.' }} />;
}
