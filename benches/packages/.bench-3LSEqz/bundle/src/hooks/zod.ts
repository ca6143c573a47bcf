import { z } from 'zod';

const Input = z.object({ command: z.string().min(1) });

export default (event: { toolInput: unknown }) => {
  const parsed = Input.safeParse(event.toolInput);
  return { additionalContext: parsed.success ? parsed.data.command : 'invalid' };
};
