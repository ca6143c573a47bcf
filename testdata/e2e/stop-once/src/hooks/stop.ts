interface Event {
  readonly stopHookActive: boolean;
}

export default (event: Event) =>
  event.stopHookActive ? undefined : { outcome: 'deny' as const, reason: 'E2E_STOP_REASON: check the work once more' };
