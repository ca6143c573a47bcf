export default () => ({ additionalContext: 'E2E_COMBINED_BEFORE: context from a combined command' });
