// Codex and Cursor cannot host the shared runtime (no generated MCP server there), and there is no standalone fallback.
export const config = { runtime: 'shared' };

export default async function Prompt() {
  return null;
}
