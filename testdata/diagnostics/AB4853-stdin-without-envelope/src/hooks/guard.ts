import { readFileSync } from 'node:fs';

// readFileSync(0) in a comment is not a read.
export default () => {
  const envelope = JSON.parse(readFileSync(0, 'utf8'));
  if (String(envelope.tool_input?.command).includes('rm -rf')) {
    return { outcome: 'deny' as const, reason: 'no recursive deletes' };
  }
};
