import { ZodType } from 'zod/lib/types';

export default () => ({ additionalContext: String(ZodType) });
