// A tool/before route beside the guards example's config hooks: refuses a download piped into a
// shell, and, for a command that asks for it, takes two minutes (the Workbench's cancel is tried on it).
import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteProps } from 'agent-bundle';

export const config = { tools: ['shell'], requires: ['events.toolBefore.deny'] };

export default async function PipeGuard({ canonical }: AgentEventRouteProps<'tool/before'>) {
  const input = canonical.payload.toolInput?.value as { command?: unknown } | undefined;
  const command = typeof input?.command === 'string' ? input.command : '';
  if (command.includes('take-your-time')) await new Promise((resolve) => setTimeout(resolve, 120_000));
  if (/\b(curl|wget)\b[^|]*\|\s*(ba|z)?sh\b/.test(command)) {
    return <Agent.Result value={{ outcome: 'deny', reason: `Blocked: piping a download into a shell (\`${command}\`)` }} />;
  }
  return null;
}
