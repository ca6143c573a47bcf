// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    beforeTool: { handler: './src/hooks/guard.ts', tools: ['shell'], failClosed: true },
  },
  plugin: { name: 'e2e-fail-closed-throws', description: 'agent-bundle real-host scenario fail-closed-throws.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'cline', 'codex', 'droid', 'opencode', 'pi'],
});
