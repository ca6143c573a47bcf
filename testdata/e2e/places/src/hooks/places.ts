import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default (_event: unknown, context: { pluginRoot: string; projectDir?: string; dataDir: string }) => {
  const rules = readFileSync(join(context.pluginRoot, 'notes', 'rules.md'), 'utf8').trim();
  writeFileSync(join(context.dataDir, 'state'), 'kept');
  const kept = existsSync(join(context.dataDir, 'state'));
  if (context.projectDir !== undefined) writeFileSync(join(context.projectDir, 'places.txt'), context.dataDir);
  return { additionalContext: `${rules}; data kept: ${kept}` };
};
