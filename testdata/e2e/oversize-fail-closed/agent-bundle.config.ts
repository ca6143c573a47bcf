// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    // A 1 KiB limit stands for the default's 64 MiB: an envelope over it is too large to judge,
    // so this fail-closed guard blocks the call instead of letting it through.
    beforeTool: { handler: './src/hooks/guard.ts', tools: ['shell'], failClosed: true, maxInputBytes: 1024 },
  },
  plugin: { name: 'e2e-oversize-fail-closed', description: 'agent-bundle real-host scenario oversize-fail-closed.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'codex'],
});
