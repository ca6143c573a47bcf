import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export default () => ({ additionalContext: readFileSync(join(__dirname, 'prompt.md'), 'utf8') });
