export default () => ({ additionalContext: 'built by build.rs' });
