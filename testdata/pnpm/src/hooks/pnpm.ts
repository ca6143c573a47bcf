import { kebabCase } from 'lodash-es';
import glob from 'glob';
import { minimatch } from 'minimatch';
import { z } from 'zod';

export default (event: { toolInput: unknown }) => {
  const command = z.object({ command: z.string() }).parse(event.toolInput).command;
  return {
    additionalContext: `pnpm ${kebabCase(command)} ${typeof glob.sync} ${minimatch('x.ts', '*.ts')}`,
  };
};
