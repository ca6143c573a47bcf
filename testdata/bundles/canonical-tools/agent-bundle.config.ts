// One guard for every host, written against the canonical tool (`event.tool`) and nothing native:
// no host's tool names (`Bash`, `run_shell_command`, `apply_patch`, `view`) and no input keys
// (`file_path`, `path`, `toolArgs`). It refuses `rm -rf` in the shell and any read or write of a
// `.env` file. Codex has no file-reading tool (reads go through its shell), so the read guard is
// declared for the other hosts.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    beforeTool: [
      { handler: './src/hooks/guard.ts', tools: ['shell', 'file.write'], failClosed: true },
      {
        handler: './src/hooks/guard.ts',
        tools: ['file.read'],
        targets: ['claude', 'copilot', 'cursor', 'gemini'],
        failClosed: true,
      },
    ],
    afterTool: { handler: './src/hooks/audit.ts' },
  },
  plugin: {
    name: 'canonical-tools',
    description: 'One guard over the canonical tool on every host.',
    version: '1.0.0',
    author: 'agent-bundle tests',
  },
  targets: ['claude', 'codex', 'copilot', 'cursor', 'gemini'],
});
