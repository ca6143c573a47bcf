export const handler = () => undefined;
