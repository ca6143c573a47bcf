// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    sessionStart: { handler: './src/hooks/context.ts', sources: ['startup'] },
  },
  plugin: { name: 'e2e-session-sources-startup', description: 'agent-bundle real-host scenario session-sources-startup.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'codex', 'droid', 'pi'],
});
