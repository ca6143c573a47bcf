// No default export at all.
export const config = { timeoutMs: 1000 };
