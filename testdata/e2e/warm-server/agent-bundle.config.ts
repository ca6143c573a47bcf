// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs. The plugin's
// warm server (`bundle.warmServer`) answers the hooks that may fail open, through Claude Code's
// `mcp_tool` entries: a guard that denies, a hook that spins on the same call (ended at its own
// deadline, in its own worker, without taking the guard's denial with it) and a context after the
// tool. The fail-closed audit stays a command: the host skips a server that is not connected.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    beforeTool: [
      { handler: './src/hooks/guard.ts', tools: ['shell'] },
      { handler: './src/hooks/spin.ts', tools: ['shell'], timeout: 5 },
      { handler: './src/hooks/audit.ts', tools: ['shell'], failClosed: true },
    ],
    afterTool: { handler: './src/hooks/after.ts', tools: ['shell'] },
  },
  bundle: { warmServer: true },
  plugin: { name: 'e2e-warm-server', description: 'agent-bundle real-host scenario warm-server.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude'],
});
