export default () => {
  throw new Error('E2E_COMBINED_THROWS: a fail-open hook that fails');
};
