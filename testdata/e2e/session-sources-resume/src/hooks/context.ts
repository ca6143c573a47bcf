export default () => ({ additionalContext: 'E2E_SOURCES_MARKER: only for resume sessions' });
