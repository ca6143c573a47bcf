import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: { sessionStart: { handler: './src/hooks/session-start.ts' } },
  plugin: { name: 'define-config', description: 'The page\'s first form.' },
  targets: ['portable', 'codex', 'claude'],
});
