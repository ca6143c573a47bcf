// Control for mod-spin-fail-closed: the same spinning guard without failClosed fails open there.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    beforeTool: { handler: './src/hooks/spin.ts', tools: ['shell'] },
  },
  plugin: { name: 'e2e-mod-spin-fail-open', description: 'agent-bundle real-host scenario mod-spin-fail-open.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude-mod'],
});
