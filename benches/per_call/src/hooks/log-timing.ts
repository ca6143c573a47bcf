// An observer: logs when the call was seen and on which host.
export default (_event: unknown, context: { target: string; nativeEvent: string }) => {
  console.error(`per-call: ${new Date().toISOString()} ${context.target} ${context.nativeEvent}`);
};
