// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    stop: './src/hooks/stop.ts',
  },
  plugin: { name: 'e2e-stop-once', description: 'agent-bundle real-host scenario stop-once.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'codex', 'copilot', 'droid', 'gemini', 'pi', 'qwen'],
});
