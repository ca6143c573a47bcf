// Denies destructive shell commands, and tells the model what to do instead. Hosts without a context
// channel on this event (Cursor) still get the denial; the wrapper notes the dropped context.
interface ShellCall {
  readonly toolInput: { readonly command?: string };
}

const DANGEROUS = [/\brm\s+-rf\s+\/(\s|$)/, /\bgit\s+push\s+(-f|--force)\b/, /\bmkfs\b/];

export default ({ toolInput }: ShellCall) => {
  const command = toolInput.command ?? '';
  const hit = DANGEROUS.find((pattern) => pattern.test(command));
  if (!hit) return undefined;
  return {
    outcome: 'deny' as const,
    reason: `This repository does not allow \`${command}\`.`,
    additionalContext: 'Use `git push --force-with-lease` for rewritten branches; never delete the root.',
  };
};
