const Route = async () => null;
export { Route as default };
