// An allow-list guard: commands that only echo are approved explicitly, the rest keep the host's rules.
interface ShellCall {
  toolInput?: { command?: string };
}

export default (event: ShellCall) =>
  /^echo [\w ]+ > [\w.]+$/.test(event.toolInput?.command ?? '') ? { outcome: 'allow' as const } : undefined;
