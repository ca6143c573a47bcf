import type { HookHandler, HookResult } from 'agent-bundle';

// @ts-expect-error: a denial needs a reason
export const noReason: HookResult<'beforeTool'> = { outcome: 'deny' };

// @ts-expect-error: a reason without a denial
export const strayReason: HookResult<'beforeTool'> = { outcome: 'continue', reason: 'why' };

// @ts-expect-error: updatedInput cannot come with a denial
export const deniedRewrite: HookResult<'beforeTool'> = { outcome: 'deny', reason: 'no', updatedInput: {} };

// @ts-expect-error: `stop` is not an outcome
export const stops: HookResult<'beforeTool'> = { outcome: 'stop' };

// @ts-expect-error: `additionalContexts` is not a result key
export const typo: HookResult<'beforeTool'> = { additionalContexts: 'x' };

export const legal: HookHandler<'beforeTool'> = (event) =>
  event.toolName === 'Bash' ? { outcome: 'deny', reason: 'no shell here' } : { outcome: 'allow', updatedInput: {} };

// @ts-expect-error: `command` is a shell tool's field: narrow `tool.kind` first
export const unnarrowed: HookHandler<'beforeTool'> = ({ tool }) => (tool.command === 'ls' ? { outcome: 'allow' } : undefined);

// @ts-expect-error: `file.delete` is not a tool kind
export const noSuchKind: HookHandler<'beforeTool'> = ({ tool }) => (tool.kind === 'file.delete' ? { outcome: 'allow' } : undefined);

export const narrowed: HookHandler<'beforeTool'> = ({ tool }) =>
  tool.kind === 'file.write' && tool.filePaths.includes('.env') ? { outcome: 'deny', reason: 'no .env writes' } : undefined;
