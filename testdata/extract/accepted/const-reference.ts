import { defineConfig } from 'agent-bundle/config';

const targets = ['claude', 'codex'] as const;
const guard = { handler: './src/hooks/guard.ts', targets };
export const shared = { timeout: 5 };

const config = defineConfig({ hooks: { beforeTool: guard }, targets });
export default config;
