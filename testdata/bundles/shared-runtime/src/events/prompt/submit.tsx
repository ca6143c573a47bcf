// Shared only (no fallback), so Claude Code alone, the host whose plugins carry the MCP server.
import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteConfig, AgentEventRouteProps } from 'agent-bundle';

export const config = {
  runtime: 'shared',
  targets: ['claude'],
  timeoutMs: 1_000,
} satisfies AgentEventRouteConfig;

let prompts = 0;

export default async function PromptCounter({ canonical }: AgentEventRouteProps<'prompt/submit'>) {
  const prompt = canonical.payload.prompt?.value ?? '';
  if (prompt.includes('throw')) throw new Error('the route failed on purpose');
  if (prompt.includes('sleep')) await new Promise((resolve) => setTimeout(resolve, 3_000));
  prompts += 1;
  return <Agent.Context>{`prompt ${prompts}`}</Agent.Context>;
}
