// Spins without yielding on the call the guard denies: only its own worker is held.
export default ({ toolInput }: { toolInput: { command?: string } }) => {
  if (String(toolInput.command ?? '').includes('E2E_GO_AWAY')) {
    for (;;) {
      // never yields
    }
  }
  return undefined;
};
