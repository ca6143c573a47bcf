// Refuses destructive commands (with what to do instead), pins the test runner's reporter, and
// refuses to guess when the call carries no command: a fail-closed guard's throw blocks the call.
import type { HookHandler } from 'agent-bundle';

const DANGEROUS = [/\brm\s+-rf\s+\/(\s|$)/, /\bgit\s+push\s+(-f|--force)\b/];

const guard: HookHandler<'beforeTool'> = ({ tool }) => {
  if (tool.kind !== 'shell') return undefined;
  const command = tool.command.trim();
  if (command === '') throw new Error('an empty command: refusing to guess what it runs');
  if (command === 'throw-in-guard') throw new Error('the guard broke on purpose');
  if (DANGEROUS.some((pattern) => pattern.test(command))) {
    return {
      outcome: 'deny' as const,
      reason: `This repository does not allow \`${command}\`.`,
      additionalContext: 'Use `git push --force-with-lease` for rewritten branches.',
    };
  }
  if (command === 'npm test') {
    return { updatedInput: { command: 'npm test -- --reporter=dot' } };
  }
  return undefined;
};

export default guard;
