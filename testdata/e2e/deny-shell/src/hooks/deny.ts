export default () => ({ outcome: 'deny' as const, reason: 'E2E_DENY_REASON: agent-bundle blocked this command' });
