export default () => ({ additionalContext: 'E2E_SOURCES_MARKER: only for startup sessions' });
