export default (event: { reentry: boolean }) => {
  if (event.reentry {
    return undefined;
  }
};
