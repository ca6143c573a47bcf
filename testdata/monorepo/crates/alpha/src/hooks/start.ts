export default () => ({ additionalContext: 'alpha' });
