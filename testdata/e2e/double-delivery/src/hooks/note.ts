import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

export default (event: { cwd?: string }, context: { target: string; nativeEvent: string }) => {
  appendFileSync(join(event.cwd ?? process.cwd(), 'delivered.log'), `${context.target} ${context.nativeEvent}\n`);
};
