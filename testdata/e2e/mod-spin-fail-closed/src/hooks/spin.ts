// Spins for a minute without ever yielding to the event loop.
export default () => {
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    // busy
  }
  return { outcome: 'deny' as const, reason: 'E2E_SPIN_FINISHED: the spin ended on its own' };
};
