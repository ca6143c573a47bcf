import { defineConfig } from 'agent-bundle/config';

export default defineConfig(() => ({
  hooks: { stop: './src/hooks/stop.ts' },
}));
