import type { HookHandler } from 'agent-bundle';
import { judge } from './judge';

const guard: HookHandler<'beforeTool'> = ({ tool }) => {
  const why = judge(tool);
  return why === undefined ? undefined : { outcome: 'deny', reason: why };
};

export default guard;
