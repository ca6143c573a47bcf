import { blockedCommands } from '../lib/policy';

interface BeforeToolEvent {
  readonly toolInput: { readonly command?: string };
}

export default (event: BeforeToolEvent) => {
  const command = event.toolInput.command ?? '';
  const blocked = blockedCommands.find((pattern) => command.includes(pattern));
  if (blocked) {
    return { outcome: 'deny' as const, reason: `\`${blocked}\` is not allowed in this repository.` };
  }
  return undefined;
};
