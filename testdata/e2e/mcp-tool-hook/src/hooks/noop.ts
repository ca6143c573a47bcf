// The bundle needs a hook of its own; the scenario's mcp_tool hook is written into the document.
export default () => undefined;
