// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs. Five hooks a
// host would start for one shell call, built once with one command per call (this config) and once
// with a command per hook (`combineCommands: false`, which the suite writes in a copy): the two
// sessions must behave the same.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    beforeTool: [
      { handler: './src/hooks/guard.ts', tools: ['shell'], failClosed: true },
      { handler: './src/hooks/context.ts', tools: ['shell'] },
      { handler: './src/hooks/observe.ts' },
      { handler: './src/hooks/throws.ts' },
    ],
    afterTool: [
      { handler: './src/hooks/after.ts', tools: ['shell'] },
      { handler: './src/hooks/observe.ts', tools: ['shell'] },
    ],
  },
  bundle: { combineCommands: true },
  plugin: { name: 'e2e-combined', description: 'agent-bundle real-host scenario combined.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'codex', 'copilot', 'droid', 'gemini', 'qwen'],
});
