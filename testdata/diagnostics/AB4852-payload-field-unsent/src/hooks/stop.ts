export default ({ cwd, reentry }: { cwd?: string; reentry: boolean }) =>
  reentry ? undefined : { outcome: 'deny' as const, reason: `Run the tests in ${cwd} once more.` };
