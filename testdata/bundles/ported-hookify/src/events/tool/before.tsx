import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteProps } from 'agent-bundle';
import { loadRules, matching } from '../../rules/load';

export const config = { tools: ['shell'] };

export default async function BashRules({ canonical }: AgentEventRouteProps<'tool/before'>) {
  const { cwd, toolInput } = canonical.payload;
  const input = toolInput?.value as { command?: unknown } | undefined;
  const command = typeof input?.command === 'string' ? input.command : '';
  // Rules live in the project; a host that sends no folder has none to apply.
  if (!cwd) return null;
  const hits = matching(loadRules(cwd.value), 'bash', command);
  if (hits.length === 0) return null;
  const text = hits.map((rule) => `[${rule.name}] ${rule.message}`).join('\n');
  if (hits[0].action === 'block') {
    return <Agent.Result value={{ outcome: 'deny', reason: text }} />;
  }
  return <Agent.Context>{text}</Agent.Context>;
}
