export default {
  hooks: { stop: './src/hooks/stop.ts' },
  mcpServers: {
    nothing: { args: ['--port', '0'] },
    both: { command: 'npx', url: 'https://mcp.example.com/mcp' },
    stray: { type: 'http', url: 'https://mcp.example.com/mcp', env: { TOKEN: 'x' } },
  },
};
