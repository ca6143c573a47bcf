export default () => ({ outcome: 'deny' as const, reason: 'E2E_DROID_GUARD_RAN' });
