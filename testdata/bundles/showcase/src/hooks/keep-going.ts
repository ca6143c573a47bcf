interface StopEvent {
  readonly stopHookActive: boolean;
}

export default (event: StopEvent) =>
  event.stopHookActive ? undefined : { outcome: 'deny' as const, reason: 'Run the test suite once more before stopping.' };
