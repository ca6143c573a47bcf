// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    sessionStart: './src/hooks/context.ts',
  },
  plugin: { name: 'e2e-session-context', description: 'agent-bundle real-host scenario session-context.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'codex', 'copilot', 'droid', 'gemini', 'opencode', 'pi', 'qwen'],
});
