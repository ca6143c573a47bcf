import { readFileSync } from 'node:fs';

// As a hook script reads its envelope: from stdin, to the end.
export default () => {
  const envelope = readFileSync(0, 'utf8');
  if (envelope.includes('marker.txt')) {
    return { outcome: 'deny' as const, reason: 'E2E_STDIN_REASON: the envelope read from stdin names the marker' };
  }
};
