import { kebabCase } from 'lodash-es';
import { z } from 'zod';

const ShellInput = z.object({ command: z.string() });

export default (event: { toolInput: unknown }) => {
  const { command } = ShellInput.parse(event.toolInput);
  if (command.includes('marker.txt')) {
    return { outcome: 'deny' as const, reason: `E2E_NPM_DENY ${kebabCase('Blocked By Bundled Packages')}` };
  }
  return undefined;
};
