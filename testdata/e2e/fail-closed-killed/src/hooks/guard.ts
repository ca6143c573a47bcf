// A guard whose process dies in a way no wrapper can catch (SIGKILL): only the host's own
// failure field (Claude Code's onFailure: "block") can still block the command.
export default () => {
  process.kill(process.pid, 'SIGKILL');
  return new Promise(() => {});
};
