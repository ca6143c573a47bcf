// A review that may take a while (its timeout is 30 s), so it runs as a command.
export default async ({ toolName }: { toolName: string }) =>
  toolName === 'NotebookEdit' ? { outcome: 'deny' as const, reason: 'Notebooks are reviewed by hand.' } : undefined;
