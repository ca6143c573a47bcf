import type { AgentBundleConfig } from 'agent-bundle';

export default ({
  hooks: {
    stop: ('./src/hooks/stop.ts' as string)!,
    beforeTool: <const>{ handler: './src/hooks/guard.ts', timeout: (10 satisfies number) },
  },
  targets: ['claude'] as const,
} satisfies AgentBundleConfig) as AgentBundleConfig;
