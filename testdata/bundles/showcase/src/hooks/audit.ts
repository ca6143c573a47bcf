import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

interface AfterToolEvent {
  readonly toolName: string;
}

// Async: the host goes on at once; the line lands in the plugin's own data folder.
export default (event: AfterToolEvent, context: { dataDir: string }) => {
  appendFileSync(join(context.dataDir, 'audit.log'), `${new Date().toISOString()} ${event.toolName}\n`);
};
