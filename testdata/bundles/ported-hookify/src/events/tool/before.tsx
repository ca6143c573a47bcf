import { Agent } from '@agent-bundle/runtime';
import { loadRules, matching } from '../../rules/load';

export const config = { tools: ['shell'] };

export default async function BashRules({ canonical }) {
  const { cwd, toolInput } = canonical.payload;
  const command = String(toolInput?.value?.command ?? '');
  const hits = matching(loadRules(cwd.value), 'bash', command);
  if (hits.length === 0) return null;
  const text = hits.map((rule) => `[${rule.name}] ${rule.message}`).join('\n');
  if (hits[0].action === 'block') {
    return <Agent.Result value={{ outcome: 'deny', reason: text }} />;
  }
  return <Agent.Context>{text}</Agent.Context>;
}
