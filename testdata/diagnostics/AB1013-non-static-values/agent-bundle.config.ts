import { defineConfig } from 'agent-bundle/config';
import { sharedTargets } from './shared';

let timeout = 5;
const base = { name: 'dynamic' };

export default defineConfig({
  hooks: {
    beforeTool: { handler: './src/hooks/guard.ts', timeout, tools: ['shell'].concat(['mcp']) },
    stop: `./src/hooks/${'stop'}.ts`,
  },
  plugin: { ...base },
  targets: sharedTargets,
});
