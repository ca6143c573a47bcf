// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs. Claude Code
// can ask, so it runs on Codex and Gemini CLI only; Claude is a target so `claude plugin validate` has
// a plugin to check.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    beforeTool: { handler: './src/hooks/ask.ts', tools: ['shell'] },
  },
  plugin: { name: 'e2e-ask-shell', description: 'agent-bundle real-host scenario ask-shell.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'codex', 'gemini'],
});
