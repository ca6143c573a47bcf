import type { HookHandler } from 'agent-bundle';

// @ts-expect-error: sessionStart cannot deny
export const denies: HookHandler<'sessionStart'> = () => ({ outcome: 'deny', reason: 'no' });

export const greets: HookHandler<'sessionStart'> = (event) => ({ additionalContext: `in ${event.cwd}` });

// @ts-expect-error: `source` is a string, not a number
export const wrongPayload: HookHandler<'sessionStart'> = (event) => ({ additionalContext: event.source?.toFixed() });
