// benches/packages/.bench-3LSEqz/bundle/src/hooks/plain.ts
var plain_default = (event) => ({ additionalContext: `ran ${event.toolName}` });
export {
  plain_default as default
};
