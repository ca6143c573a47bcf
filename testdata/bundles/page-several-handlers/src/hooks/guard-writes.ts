interface BeforeToolEvent {
  readonly toolName: string;
  readonly toolInput: { readonly command?: string; readonly file_path?: string };
}

export default (event: BeforeToolEvent) => {
  const path = event.toolInput.file_path ?? '';
  if (path.endsWith('.env')) {
    return { outcome: 'deny' as const, reason: `Writing ${path} is not allowed: it holds secrets.` };
  }
  return undefined;
};
