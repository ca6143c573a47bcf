export default {
  hooks: { stop: './src/hooks/stop.ts' },
  mcpServers: {
    websocket: { type: 'ws', url: 'wss://mcp.example.com/' },
    ftp: { type: 'http', url: 'ftp://mcp.example.com/' },
  },
};
