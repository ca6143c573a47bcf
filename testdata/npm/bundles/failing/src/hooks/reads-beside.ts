import { readFileSync } from 'node:fs';

export default () => ({ additionalContext: readFileSync(new URL('./prompt.md', import.meta.url), 'utf8') });
