export const greet = (who: string): string => `hello ${who}`;
