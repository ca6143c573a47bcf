export default () => ({ outcome: 'deny' as const, reason: 'no' });
