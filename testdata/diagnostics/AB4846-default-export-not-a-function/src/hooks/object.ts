// A hook written as an object with a method, as some other tools expect.
const guard = {
  beforeTool(event: unknown) {
    return event ? undefined : { outcome: 'deny', reason: 'no event' };
  },
};

export default guard;
