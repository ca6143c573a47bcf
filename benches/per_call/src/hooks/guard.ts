// The fail-closed guard: denies `rm -rf`; any failure of its own blocks the call too.
interface ShellCall {
  readonly tool: { readonly kind: string; readonly command?: string };
}

export default ({ tool }: ShellCall) =>
  tool.kind === 'shell' && /\brm\s+-rf\b/.test(tool.command ?? '')
    ? { outcome: 'deny' as const, reason: '`rm -rf` is not run in this repository.' }
    : undefined;
