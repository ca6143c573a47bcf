// A policy that must hold even when it breaks: declared with failClosed, so a throw here (the policy
// file is malformed, the input is not what it expects) blocks the tool instead of letting it run.
interface ToolCall {
  readonly toolName: string;
  readonly toolInput: Record<string, unknown>;
}

const PROTECTED = ['.env', 'secrets/', 'id_rsa'];

export default ({ toolName, toolInput }: ToolCall) => {
  const target = String(toolInput.file_path ?? toolInput.path ?? toolInput.command ?? '');
  if (target === '') {
    throw new Error(`cannot tell what ${toolName} touches; refusing to guess`);
  }
  const hit = PROTECTED.find((name) => target.includes(name));
  return hit ? { outcome: 'deny' as const, reason: `${hit} is protected by policy.` } : undefined;
};
