import type { HookResult } from 'agent-bundle';

// @ts-expect-error: stop accepts no context
export const stopContext: HookResult<'stop'> = { outcome: 'deny', reason: 'again', additionalContext: 'x' };

// @ts-expect-error: afterTool cannot ask
export const asks: HookResult<'afterTool'> = { outcome: 'ask' };

export const ok: HookResult<'afterTool'> = { additionalContext: 'fine' };
