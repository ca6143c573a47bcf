// A fail-closed guard that spins without yielding: in Claude Code's hooks module no timer of the
// runtime can interrupt it, so the engine ends the wedged worker and the registration's `.catch`,
// which agent-bundle writes for a fail-closed hook, refuses the call.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    beforeTool: { handler: './src/hooks/spin.ts', tools: ['shell'], failClosed: true },
  },
  plugin: { name: 'e2e-mod-spin-fail-closed', description: 'agent-bundle real-host scenario mod-spin-fail-closed.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude-mod'],
});
