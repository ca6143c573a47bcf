// The four conformance vectors of D3 in docs/decisions.md: the original's names, bit for bit.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    sessionStart: './src/hooks/session-start.ts',
    beforeTool: {
      handler: './src/hooks/check-command.ts',
      targets: ['codex', 'claude', 'codex'],
      timeout: 7,
      tools: ['shell', 'shell'],
    },
    afterTool: { handler: './src/hooks/record.ts', tools: ['file.write', 'shell', 'file.write'] },
    stop: './src/hooks/stop.ts',
  },
  plugin: { name: 'conformance', description: 'Hook-name conformance vectors.', version: '1.0.0', author: 'agent-bundle examples' },
});
