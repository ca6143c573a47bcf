export default (event: { tool: { command?: string } }) =>
  event.tool.command?.includes('E2E_GO_AWAY')
    ? { outcome: 'deny' as const, reason: 'E2E_COMBINED_DENY: the guard of a combined command blocked this' }
    : undefined;
