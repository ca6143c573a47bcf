// src/events/tool/after.tsx
import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteConfig, AgentEventRouteProps } from 'agent-bundle';

export const config = {
  runtime: 'standalone', // 'shared' renders inside the generated MCP server process
  targets: ['claude', 'codex'],
  timeoutMs: 30_000, // budget inside the host's own native deadline
  tools: ['file.write'], // canonical selector -> per-host native matcher
} satisfies AgentEventRouteConfig;

export default async function AfterFileEdit({ canonical, native, signal }: AgentEventRouteProps) {
  // canonical.provenance = { host, hostContractRevision, nativeEvent, source: 'native' }
  return (
    <Agent.Result>
      <Agent.Context>{`Recorded an edit reported by ${canonical.provenance.host}.`}</Agent.Context>
    </Agent.Result>
  );
}
