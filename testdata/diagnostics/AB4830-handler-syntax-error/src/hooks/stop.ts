export default (event: { stopHookActive: boolean }) => {
  if (event.stopHookActive {
    return undefined;
  }
};
