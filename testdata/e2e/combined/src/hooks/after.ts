export default () => ({ additionalContext: 'E2E_COMBINED_AFTER: context after the tool' });
