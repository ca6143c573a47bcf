// Shared only (no fallback), so Claude Code alone, the host whose plugins carry the MCP server.
import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteConfig, AgentEventRouteProps } from 'agent-bundle';

export const config = {
  runtime: 'shared',
  targets: ['claude'],
  timeoutMs: 1_000,
} satisfies AgentEventRouteConfig;

let prompts = 0;

export default async function PromptCounter({ canonical, signal }: AgentEventRouteProps<'prompt/submit'>) {
  const prompt = canonical.payload.prompt?.value ?? '';
  if (prompt.includes('throw')) throw new Error('the route failed on purpose');
  if (prompt.includes('sleep')) await new Promise((resolve) => setTimeout(resolve, 3_000));
  // The budget counts from this delivery, however long the server has been up: the signal is live
  // at the start and still a short while in.
  if (prompt.includes('signal')) {
    const atStart = signal.aborted;
    await new Promise((resolve) => setTimeout(resolve, 50));
    return <Agent.Context>{`signal aborted at start: ${atStart}, after 50 ms: ${signal.aborted}`}</Agent.Context>;
  }
  // Runs past its budget, waiting (at most 8 s) for the signal to say so.
  if (prompt.includes('outlast')) {
    await new Promise<void>((resolve) => {
      const cap = setTimeout(resolve, 8_000);
      signal.addEventListener('abort', () => {
        clearTimeout(cap);
        resolve();
      });
    });
    return <Agent.Context>{`signal aborted: ${signal.aborted} (${(signal.reason as Error | undefined)?.name})`}</Agent.Context>;
  }
  prompts += 1;
  return <Agent.Context>{`prompt ${prompts}`}</Agent.Context>;
}
