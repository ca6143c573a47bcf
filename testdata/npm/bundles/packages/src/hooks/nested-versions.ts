// glob@7 needs minimatch@3, which npm nests under it; the top-level minimatch is 10.
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import glob from 'glob';
import { minimatch } from 'minimatch';

export default () => {
  const here = dirname(fileURLToPath(import.meta.url));
  const found = glob.sync('*.mjs', { cwd: here }).length > 0;
  return { additionalContext: `glob ${found} minimatch ${minimatch('a/b.ts', '**/*.ts')}` };
};
