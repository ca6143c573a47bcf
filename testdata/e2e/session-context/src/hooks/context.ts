export default () => ({ additionalContext: 'E2E_SESSION_MARKER: context from agent-bundle' });
