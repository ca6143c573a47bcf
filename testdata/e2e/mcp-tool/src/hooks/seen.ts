// Tells the model which name the host gave the plugin's own tool.
export default ({ tool }: { tool: { name: string } }) => ({
  additionalContext: `E2E_MCP_HOOK_SAW ${tool.name}`,
});
