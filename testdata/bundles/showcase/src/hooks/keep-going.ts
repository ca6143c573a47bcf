interface StopEvent {
  readonly reentry: boolean;
}

export default (event: StopEvent) =>
  event.reentry ? undefined : { outcome: 'deny' as const, reason: 'Run the test suite once more before stopping.' };
