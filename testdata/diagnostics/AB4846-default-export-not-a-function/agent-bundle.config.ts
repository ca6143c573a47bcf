// The wrapper calls a handler's default export with the event: an object or a class cannot be called.
export default {
  hooks: {
    beforeTool: './src/hooks/object.ts',
    stop: './src/hooks/class.ts',
  },
};
