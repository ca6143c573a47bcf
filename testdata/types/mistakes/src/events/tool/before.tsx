import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteConfig, AgentEventRouteProps } from 'agent-bundle';

export const config = {
  // @ts-expect-error: `block` is not a capability part
  requires: ['events.toolBefore.block'],
  // @ts-expect-error: `standalon` is not a runtime
  runtime: 'standalon',
} satisfies AgentEventRouteConfig;

export default async function Guard({ canonical }: AgentEventRouteProps<'tool/before'>) {
  // @ts-expect-error: tool/before has no `prompt` field
  const prompt = canonical.payload.prompt;
  return (
    <>
      {/* @ts-expect-error: no host receives HTML */}
      <div>{String(prompt)}</div>
      {/* @ts-expect-error: a denial needs a reason */}
      <Agent.Result value={{ outcome: 'deny' }} />
    </>
  );
}
