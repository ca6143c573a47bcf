// Claude Code's hooks module (mods, opt-in: `claude-mod`): a tool hook whose bundle needs nothing a
// hooks module lacks runs in-process there; the rest stay Claude Code's command hooks, each with why.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    sessionStart: { handler: './src/hooks/greet.ts' },
    beforeTool: [
      // Pure code: runs in the hooks module, fail-closed (a throw refuses the call there too).
      { handler: './src/hooks/guard.ts', tools: ['shell'], failClosed: true },
      // Imports node:fs: a hooks module has no Node, so it stays a command.
      { handler: './src/hooks/audit-log.ts', tools: ['file.write'] },
      // Pure, but may run longer than a hook may in the hooks module (10 s): a command.
      { handler: './src/hooks/slow-review.ts', tools: ['file.write'], timeout: 30 },
    ],
    afterTool: { handler: './src/hooks/after-shell.ts', tools: ['shell'] },
  },
  plugin: {
    name: 'in-process-guards',
    description: 'Tool hooks that run in-process in Claude Code, and the ones that stay commands.',
    version: '1.0.0',
    author: 'agent-bundle examples',
    license: 'MIT',
  },
  targets: ['claude-mod'],
});
