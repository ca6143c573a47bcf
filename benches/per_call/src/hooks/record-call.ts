// The hook that uses node:fs: appends one line per call to a log in the plugin's data folder.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

interface ShellCall {
  readonly toolInput: { readonly command?: string };
}

export default ({ toolInput }: ShellCall, context: { dataDir: string }) => {
  appendFileSync(join(context.dataDir, 'calls.log'), `${toolInput.command ?? ''}\n`);
};
