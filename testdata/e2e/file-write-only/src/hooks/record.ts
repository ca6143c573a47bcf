import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

interface Event {
  readonly cwd?: string;
  readonly toolName: string;
}

export default (event: Event) => {
  appendFileSync(join(event.cwd ?? process.cwd(), 'fired.log'), `${event.toolName}\n`);
};
