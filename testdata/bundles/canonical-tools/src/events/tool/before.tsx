// The same policy as a route: the canonical tool is a payload field like the others.
import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteProps } from 'agent-bundle';
import { judge } from '../../hooks/judge';

export const config = { tools: ['shell', 'file.write'], failClosed: true };

export default async function Guard({ canonical }: AgentEventRouteProps<'tool/before'>) {
  const tool = canonical.payload.tool?.value;
  const why = tool === undefined ? 'the host named no tool' : judge(tool);
  return why === undefined ? null : <Agent.Result value={{ outcome: 'deny', reason: why }} />;
}
