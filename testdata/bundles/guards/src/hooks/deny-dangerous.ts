// Denies destructive shell commands, and tells the model what to do instead. Hosts without a context
// channel on this event (Cursor) still get the denial; the wrapper notes the dropped context. It reads
// the canonical tool's command, which every host's shell call has (Cline CLI's `run_commands` keeps a
// list of command lines, not a `command`).
import type { HookHandler } from 'agent-bundle';

const DANGEROUS = [/\brm\s+-rf\s+\/(\s|$)/, /\bgit\s+push\s+(-f|--force)\b/, /\bmkfs\b/];

const denyDangerous: HookHandler<'beforeTool'> = ({ tool }) => {
  const command = tool.kind === 'shell' ? tool.command : '';
  const hit = DANGEROUS.find((pattern) => pattern.test(command));
  if (!hit) return undefined;
  return {
    outcome: 'deny' as const,
    reason: `This repository does not allow \`${command}\`.`,
    additionalContext: 'Use `git push --force-with-lease` for rewritten branches; never delete the root.',
  };
};

export default denyDangerous;
