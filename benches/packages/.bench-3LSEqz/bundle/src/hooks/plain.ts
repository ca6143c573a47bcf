export default (event: { toolName: string }) => ({ additionalContext: `ran ${event.toolName}` });
