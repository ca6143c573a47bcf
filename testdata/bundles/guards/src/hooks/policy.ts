// A policy that must hold even when it breaks: declared with failClosed, so a throw here (the policy
// file is malformed, the call is not what it expects) blocks the tool instead of letting it run. It
// reads the canonical tool, so the same code judges every host's shell and write tools.
import type { HookHandler } from 'agent-bundle';

const PROTECTED = ['.env', 'secrets/', 'id_rsa'];

const policy: HookHandler<'beforeTool'> = ({ tool }) => {
  const target = tool.kind === 'shell' ? tool.command : 'filePaths' in tool ? tool.filePaths.join(' ') : '';
  if (target.trim() === '') {
    throw new Error(`cannot tell what ${tool.name} touches; refusing to guess`);
  }
  const hit = PROTECTED.find((name) => target.includes(name));
  return hit ? { outcome: 'deny' as const, reason: `${hit} is protected by policy.` } : undefined;
};

export default policy;
