import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteProps } from 'agent-bundle';
import { loadRules, matching } from '../../rules/load';

export default async function PromptRules({ canonical }: AgentEventRouteProps<'prompt/submit'>) {
  const { cwd, prompt } = canonical.payload;
  if (!cwd || !prompt) return null;
  const hits = matching(loadRules(cwd.value), 'prompt', prompt.value);
  if (hits.length === 0) return null;
  const text = hits.map((rule) => `[${rule.name}] ${rule.message}`).join('\n');
  if (hits[0].action === 'block') {
    return <Agent.Result value={{ outcome: 'deny', reason: text }} />;
  }
  return <Agent.Context>{text}</Agent.Context>;
}
