// An allow-list: read-only commands run without the permission prompt (an explicit allow, written as
// the host's permission decision); anything else keeps the host's own rules (no decision at all).
interface ShellCall {
  readonly toolInput: { readonly command?: string };
}

const SAFE = /^(ls|pwd|git (status|diff|log)|echo [\w .-]*)$/;

export default ({ toolInput }: ShellCall) =>
  SAFE.test((toolInput.command ?? '').trim()) ? { outcome: 'allow' as const } : undefined;
