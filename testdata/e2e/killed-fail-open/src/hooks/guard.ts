// The control for fail-closed-killed: the same uncatchable death, without failClosed, fails open.
export default () => {
  process.kill(process.pid, 'SIGKILL');
  return new Promise(() => {});
};
