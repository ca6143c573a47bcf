// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs. An async
// afterTool hook with a status line: the host goes on without waiting for it.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    afterTool: { handler: './src/hooks/record.ts', tools: ['shell'], async: true, statusMessage: 'Recording the command', timeout: 60 },
  },
  plugin: { name: 'e2e-async-after', description: 'agent-bundle real-host scenario async-after.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'cline', 'codex', 'copilot', 'droid', 'gemini', 'opencode', 'pi', 'qwen'],
});
