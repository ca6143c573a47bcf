// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs. A hook ported
// from a script: it reads its envelope from stdin itself, finds its payload through `pluginRoot`, keeps
// state in `dataDir` and writes into the session's project (`projectDir`).
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    sessionStart: './src/hooks/places.ts',
    beforeTool: { handler: './src/hooks/reads-stdin.ts', tools: ['shell'], targets: ['claude', 'codex', 'copilot', 'droid', 'gemini', 'qwen'] },
  },
  payload: { notes: { source: './notes' } },
  plugin: { name: 'e2e-places', description: 'agent-bundle real-host scenario places.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'codex', 'copilot', 'droid', 'gemini', 'opencode', 'pi', 'qwen'],
});
