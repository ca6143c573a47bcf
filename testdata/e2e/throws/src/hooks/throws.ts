export default () => {
  throw new Error('E2E_THROW: the handler failed');
};
