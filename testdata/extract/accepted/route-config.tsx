import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteConfig } from 'agent-bundle';

export const config = {
  runtime: 'standalone',
  targets: ['claude', 'codex'],
  timeoutMs: 30_000,
  tools: ['file.write'],
} satisfies AgentEventRouteConfig;

export default async function AfterFileEdit() {
  return <Agent.Result><Agent.Context>edited</Agent.Context></Agent.Result>;
}
