import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

// Leaves a line in the project per call, so the session shows the hook ran.
export default (_event: unknown, context: { projectDir?: string }) => {
  appendFileSync(join(context.projectDir ?? process.cwd(), 'e2e-observed.txt'), 'observed\n');
  return undefined;
};
