// The policy, over the canonical tool only: the same code judges a call on every host.
import type { ToolCall } from 'agent-bundle';

// `.env` files and anything under a `secrets/` folder.
const PROTECTED = /(^|\/)(\.env(\.[\w-]+)?|secrets\/.+)$/;

/** Why the call must not run, or undefined. */
export function judge(tool: ToolCall): string | undefined {
  switch (tool.kind) {
    case 'shell':
      return /\brm\s+-[a-z]*r[a-z]*f/.test(tool.command) ? `refusing \`${tool.command}\`` : undefined;
    case 'file.read':
    case 'file.write': {
      const hit = tool.filePaths.find((path) => PROTECTED.test(path));
      return hit === undefined ? undefined : `${hit} is protected (${tool.kind} through ${tool.name})`;
    }
    default:
      return undefined;
  }
}
