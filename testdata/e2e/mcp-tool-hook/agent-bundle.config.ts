// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs. What Claude Code
// does with a plugin hook of type `mcp_tool` (issue 46, item 2): the suite writes one into the built
// plugin's hook document, calling this plugin's own server, whose `lookup` tool records each call in
// the session's folder and answers a denial for a command that names the marker file.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  mcpServers: { docs: { module: './src/mcp/server.ts' } },
  hooks: { afterTool: { handler: './src/hooks/noop.ts', tools: ['mcp:docs'] } },
  plugin: { name: 'e2e-mcp-tool-hook', description: 'agent-bundle real-host scenario mcp-tool-hook.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude'],
});
