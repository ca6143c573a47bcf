// Every config event on every host, all with one handler that returns the result shape named by the
// AGENT_BUNDLE_TEST_SHAPE environment variable. tests/wrappers.rs runs each wrapper with each shape.
// The second beforeTool entry is fail-closed: every failure must block with the host's exit 2.
// Each hook keeps its own command (`combineCommands: false`): these tests run each wrapper as the
// process its host starts; tests/it/combined.rs proves the combined command against them.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    sessionStart: { handler: './src/hooks/shape.ts', timeout: 2 },
    beforeTool: [
      { handler: './src/hooks/shape.ts', timeout: 2 },
      { handler: './src/hooks/shape.ts', timeout: 2, failClosed: true },
    ],
    afterTool: { handler: './src/hooks/shape.ts', timeout: 2 },
    stop: { handler: './src/hooks/shape.ts', timeout: 2 },
    agentStart: { handler: './src/hooks/shape.ts', timeout: 2 },
    agentStop: { handler: './src/hooks/shape.ts', timeout: 2 },
    workspaceOpen: { handler: './src/hooks/shape.ts', timeout: 2, targets: ['cursor'] },
  },
  bundle: { combineCommands: false },
  plugin: { name: 'wrapper-matrix', description: 'Result shapes for the wrapper golden tests.', version: '1.0.0', author: 'agent-bundle examples' },
  targets: ['claude', 'codex', 'copilot', 'cursor', 'droid', 'gemini', 'qwen'],
});
