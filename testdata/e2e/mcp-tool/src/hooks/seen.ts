// Tells the model which name the host gave the plugin's own tool, which server of the plugin's it
// belongs to, and the name the handler's context gives it.
interface Call {
  tool: { name: string; ownServer?: string; tool?: string };
}
interface Context {
  mcpToolName(server: string, tool: string): string | undefined;
}

export default ({ tool }: Call, context: Context) => ({
  additionalContext: `E2E_MCP_HOOK_SAW ${tool.name} own ${tool.ownServer}/${tool.tool} named ${context.mcpToolName('docs', 'lookup')}`,
});
