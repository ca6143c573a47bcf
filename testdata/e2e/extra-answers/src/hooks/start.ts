export default () => ({
  additionalContext: 'E2E_EXTRA_CONTEXT',
  extra: { systemMessage: 'E2E_SYSTEM_MESSAGE: shown to the user', env: { E2E_SESSION_VAR: 'E2E_ENV_VALUE' } },
});
