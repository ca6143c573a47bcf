// Records every call of the GitHub MCP server's tools (server-scoped selectors), for the model too.
interface ToolResult {
  readonly toolName: string;
}

export default ({ toolName }: ToolResult) => ({ additionalContext: `audited ${toolName}` });
