export default ({ toolInput }: { toolInput: { command?: string } }) =>
  toolInput.command?.includes('rm -rf') ? { outcome: 'deny' as const, reason: 'No recursive deletes.' } : undefined;
