import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Waits for the suite's go-ahead in the project, which it writes only once the host has finished,
// then records that it ran: a host that waited for this hook would never finish first.
export default async (_event: unknown, context: { projectDir?: string }) => {
  const dir = context.projectDir!;
  writeFileSync(join(dir, 'async-started.txt'), 'started');
  while (!existsSync(join(dir, 'async-go.txt'))) await new Promise((resolve) => setTimeout(resolve, 50));
  writeFileSync(join(dir, 'async-done.txt'), 'done');
};
