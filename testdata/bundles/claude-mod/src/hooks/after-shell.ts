// Tells the model which command ran, after it ran.
import type { HookHandler } from 'agent-bundle';

const afterShell: HookHandler<'afterTool'> = ({ tool }) =>
  tool.kind === 'shell' ? { additionalContext: `after-shell saw: ${tool.command}` } : undefined;

export default afterShell;
