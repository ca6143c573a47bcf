interface Event {
  readonly reentry: boolean;
}

export default (event: Event) =>
  event.reentry ? undefined : { outcome: 'deny' as const, reason: 'E2E_STOP_REASON: check the work once more' };
