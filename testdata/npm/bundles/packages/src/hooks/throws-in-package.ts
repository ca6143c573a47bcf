import { z } from 'zod';

export default () => {
  z.object({ command: z.string() }).parse({ command: 7 });
  return undefined;
};
