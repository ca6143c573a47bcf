// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs. The plugin ships
// an MCP server bundled from ./src/mcp/server.ts; its afterTool hook names the server's tools.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  mcpServers: {
    docs: { module: './src/mcp/server.ts', env: { E2E_MCP_ROOT: '${pluginRoot}' } },
  },
  hooks: {
    afterTool: { handler: './src/hooks/seen.ts', tools: ['mcp:docs'] },
  },
  plugin: { name: 'e2e-mcp-tool', description: 'agent-bundle real-host scenario mcp-tool.', version: '0.0.1', author: 'agent-bundle tests', homepage: 'https://example.com/e2e-mcp-tool', repository: 'https://github.com/example/e2e-mcp-tool', keywords: ['e2e', 'mcp'] },
  targets: ['claude', 'codex', 'copilot', 'cursor', 'gemini', 'qwen'],
});
