print("an MCP server in another language")
