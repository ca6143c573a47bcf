// Observes the end of the session: records the host's reason where the suite can see it.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

export default async function SessionEnd({ canonical }) {
  const { cwd, reason } = canonical.payload;
  appendFileSync(join(cwd.value, 'session-end.log'), `${canonical.event} ${reason?.value ?? '(no reason)'}\n`);
  return null;
}
