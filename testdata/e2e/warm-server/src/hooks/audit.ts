// A fail-closed guard that lets every call through: it stays a command.
export default () => undefined;
