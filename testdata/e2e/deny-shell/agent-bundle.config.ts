// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    beforeTool: { handler: './src/hooks/deny.ts', tools: ['shell'] },
  },
  plugin: { name: 'e2e-deny-shell', description: 'agent-bundle real-host scenario deny-shell.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'cline', 'codex', 'copilot', 'cursor', 'droid', 'gemini', 'kilo', 'opencode', 'pi', 'qwen'],
});
