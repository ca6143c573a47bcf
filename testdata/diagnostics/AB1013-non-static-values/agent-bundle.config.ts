import { defineConfig } from 'agent-bundle/config';
import { sharedTargets } from './shared';

let timeout = 5;
const base = { name: 'dynamic' };
const resolveHandler = (name: string) => `./src/hooks/${name}.ts`;

export default defineConfig({
  hooks: {
    beforeTool: { handler: './src/hooks/guard.ts', timeout, tools: ['shell'].concat(['mcp']) },
    stop: `./src/hooks/${'stop'}.ts`,
    afterTool: resolveHandler('audit'),
  },
  plugin: { ...base },
  targets: sharedTargets,
});
