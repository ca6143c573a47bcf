// Shared by every bundle of the workspace, through the root tsconfig's `paths`: a file outside each
// bundle's package that its build reads.
export const FORBIDDEN = [/\bgit\s+push\s+(-f|--force)\b/, /\brm\s+-rf\s+\//];

export function refusal(command: string): string | undefined {
  return FORBIDDEN.some((pattern) => pattern.test(command)) ? `refused by the shared policy: ${command}` : undefined;
}
