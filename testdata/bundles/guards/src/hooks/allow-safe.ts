// An allow-list: read-only commands run without the permission prompt (an explicit allow, written as
// the host's permission decision); anything else keeps the host's own rules (no decision at all). It
// reads the canonical tool's command, which every host's shell call has.
import type { HookHandler } from 'agent-bundle';

const SAFE = /^(ls|pwd|git (status|diff|log)|echo [\w .-]*)$/;

const allowSafe: HookHandler<'beforeTool'> = ({ tool }) =>
  tool.kind === 'shell' && SAFE.test(tool.command.trim()) ? { outcome: 'allow' as const } : undefined;

export default allowSafe;
