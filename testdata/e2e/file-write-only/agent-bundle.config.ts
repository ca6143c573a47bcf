// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    beforeTool: { handler: './src/hooks/record.ts', tools: ['file.write'] },
  },
  plugin: { name: 'e2e-file-write-only', description: 'agent-bundle real-host scenario file-write-only.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'cline', 'codex', 'copilot', 'droid', 'gemini', 'opencode', 'pi', 'qwen'],
});
