export default () => ({ additionalContext: 'E2E_AFTER_MARKER: seen after the tool ran' });
