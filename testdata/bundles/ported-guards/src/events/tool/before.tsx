import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteProps } from 'agent-bundle';

export const config = { tools: ['shell'], requires: ['events.toolBefore.deny'], timeoutMs: 2_000 };

const RULES: Array<[RegExp, string]> = [
  [/\brm\s+-[a-z]*r[a-z]*f?[a-z]*\s+(\/|~|\$HOME)(\s|$)/, 'recursive delete of a home or root folder'],
  [/\bgit\s+push\b.*(--force|-f)\b.*\b(main|master)\b/, 'force-push to the main branch'],
  [/\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z)?sh\b/, 'piping a download into a shell'],
];

export default async function Guard({ canonical }: AgentEventRouteProps<'tool/before'>) {
  // The canonical tool's command: every host's shell call has one (Cline CLI's `run_commands` keeps
  // a list of command lines, not a `command`).
  const tool = canonical.payload.tool?.value;
  const command = tool?.kind === 'shell' ? tool.command : '';
  const hit = RULES.find(([pattern]) => pattern.test(command));
  if (!hit) return null;
  return <Agent.Result value={{ outcome: 'deny', reason: `Blocked: ${hit[1]} (\`${command}\`)` }} />;
}
