// SessionEnd hooks get about a second on Claude Code and Codex: a five-second budget cannot fit.
export const config = { timeoutMs: 5000, targets: ['claude', 'codex'] };

export default async function SessionEnd() {
  return null;
}
