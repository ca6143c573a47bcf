export default {
  hooks: { stop: './src/hooks/stop.ts' },
  mcpServers: {
    missing: { module: './src/mcp/server.ts' },
    outside: { module: '../server.ts' },
    python: { module: './src/hooks/server.py' },
  },
};
