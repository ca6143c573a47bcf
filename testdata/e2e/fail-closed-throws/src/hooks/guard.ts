// A guard that breaks: fail-closed, its failure must block the command.
export default () => {
  throw new Error('E2E_FAIL_CLOSED the guard broke');
};
