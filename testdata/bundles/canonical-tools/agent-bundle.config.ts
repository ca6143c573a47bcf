// One guard for every host, written against the canonical tool (`event.tool`) and nothing native:
// no host's tool names (`Bash`, `run_shell_command`, `apply_patch`, `view`) and no input keys
// (`file_path`, `path`, `toolArgs`). It refuses `rm -rf` in the shell and any read or write of a
// `.env` file or of anything under `secrets/`. Codex has no file-reading tool (reads go through its
// shell), so `onMissingSelector: 'skip-selector'` gives Codex the guard for what it has: its shell
// and its writes.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    beforeTool: {
      handler: './src/hooks/guard.ts',
      tools: ['shell', 'file.read', 'file.write'],
      onMissingSelector: 'skip-selector',
      failClosed: true,
    },
    afterTool: { handler: './src/hooks/audit.ts' },
  },
  plugin: {
    name: 'canonical-tools',
    description: 'One guard over the canonical tool on every host.',
    version: '1.0.0',
    author: 'agent-bundle tests',
  },
  targets: ['amp', 'claude', 'cline', 'codex', 'copilot', 'cursor', 'droid', 'gemini', 'pi', 'qwen'],
});
