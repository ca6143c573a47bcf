// Lets every command it can judge run: only an envelope too large to judge is blocked.
export default () => undefined;
