// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs. The plugin ships
// a skill, a command, an agent and a context file beside one hook; each host that reads a part must
// hand it to the model (its description or its text in a model request).
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  skills: './skills',
  commands: { source: './commands', targets: ['claude', 'copilot', 'cursor', 'droid', 'gemini', 'qwen'] },
  // Codex's plugins carry no agents, and only Gemini CLI and Qwen Code read a plugin's context file.
  agents: { source: './agents', targets: ['claude', 'copilot', 'cursor', 'droid', 'gemini', 'qwen'] },
  contextFile: { source: './CONTEXT.md', targets: ['gemini', 'qwen'] },
  hooks: {
    sessionStart: './src/hooks/start.ts',
  },
  plugin: {
    name: 'e2e-parts',
    description: 'agent-bundle real-host scenario parts.',
    version: '0.0.1',
    author: 'agent-bundle tests',
    interface: {
      displayName: 'E2E parts',
      shortDescription: 'Skills, commands, agents and a context file',
      logo: './assets/logo.png',
      screenshots: ['assets/logo.png'],
    },
  },
  targets: ['claude', 'codex', 'copilot', 'cursor', 'droid', 'gemini', 'qwen'],
});
