// An example bundle with every kind of hook declaration agent-bundle understands.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    sessionStart: './src/hooks/session-start.ts',
    beforeTool: [
      { handler: './src/hooks/guard-shell.ts', tools: ['shell'], timeout: 10, statusMessage: 'Checking the command' },
      { handler: './src/hooks/protect-secrets.ts', tools: ['file.write', 'claude:NotebookEdit'], targets: ['claude', 'cursor'] },
    ],
    afterTool: [
      { handler: './src/hooks/record-edit.ts', tools: ['file.write', 'mcp'] },
      { handler: './src/hooks/audit.ts', async: true },
    ],
    stop: './src/hooks/keep-going.ts',
    agentStop: { handler: './src/hooks/subagent-done.ts', timeout: 30 },
    workspaceOpen: { handler: './src/hooks/workspace-open.ts', targets: ['cursor'] },
  },
  // A skill the model may take up, placed where Claude Code, Codex and Cursor read skills.
  skills: './skills',
  plugin: {
    name: 'showcase',
    description: 'Every kind of hook declaration, for trying agent-bundle out.',
    version: '0.1.0',
    author: { name: 'agent-bundle examples', url: 'https://example.com/agent-bundle' },
    license: 'MIT',
  },
  targets: ['claude', 'codex', 'cursor', 'portable'],
});
