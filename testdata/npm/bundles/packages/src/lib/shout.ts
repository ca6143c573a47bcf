export const shout = (what: string): string => `${what.toUpperCase()}!`;
