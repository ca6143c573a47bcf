import { refusal } from '@shared/policy';

export default ({ toolInput }: { toolInput: { command?: string } }) => {
  const reason = refusal(toolInput.command ?? '');
  return reason ? { outcome: 'deny' as const, reason: `alpha: ${reason}` } : undefined;
};
