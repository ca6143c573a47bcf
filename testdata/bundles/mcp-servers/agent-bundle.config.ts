// A plugin that ships MCP servers (`mcpServers`): one bundled from a module of its own, one run from
// npm, one remote; and a guard over its own server's tools (`mcp:<server>`), whatever each host
// names them.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  mcpServers: {
    notes: { module: './src/mcp/notes.ts', env: { NOTES_DIR: '${pluginRoot}/notes' }, targets: ['claude', 'codex', 'copilot', 'cursor', 'gemini', 'qwen'] },
    search: { command: 'npx', args: ['-y', '@example/search-mcp'], env: { SEARCH_TOKEN: '${SEARCH_TOKEN}' } },
    tracker: { type: 'http', url: 'https://mcp.example.com/tracker', targets: ['claude', 'codex', 'gemini'] },
  },
  hooks: {
    // Factory Droid gets no `notes` server (it cannot reach the plugin's files): there the guard
    // watches `search` alone.
    beforeTool: {
      handler: './src/hooks/notes-guard.ts',
      tools: ['mcp:search', 'mcp:notes/delete_note'],
      onMissingSelector: 'skip-selector',
    },
  },
  plugin: {
    name: 'mcp-servers',
    description: 'Notes and search tools for the model, with a guard over their destructive calls.',
    version: '1.0.0',
    author: 'agent-bundle examples',
    license: 'MIT',
    homepage: 'https://example.com/mcp-servers',
    repository: 'https://github.com/example/mcp-servers',
    keywords: ['notes', 'search', 'mcp'],
  },
  targets: ['claude', 'codex', 'copilot', 'cursor', 'droid', 'gemini', 'qwen'],
});
