// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs. A sessionStart
// hook answers a line for the user (`extra.systemMessage`) and a variable for the session
// (`extra.env`); the model's shell command prints the variable into a file.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    sessionStart: './src/hooks/start.ts',
  },
  plugin: { name: 'e2e-extra-answers', description: 'agent-bundle real-host scenario extra-answers.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'codex', 'copilot', 'droid', 'gemini', 'qwen'],
});
