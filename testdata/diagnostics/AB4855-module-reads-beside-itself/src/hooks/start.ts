import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// readFileSync(join(__dirname, 'in-a-comment.md')) is not a read.
const here = dirname(fileURLToPath(import.meta.url));
const prompts = join(here, 'prompts');

export default () => ({ additionalContext: readFileSync(join(prompts, 'start.md'), 'utf8') });

// Run as a script: only then does it read and exit, which the build leaves alone.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exit(0);
}
