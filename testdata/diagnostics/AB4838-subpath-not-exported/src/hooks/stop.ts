import { internal } from 'strict-exports/lib/internal.js';

export default () => (internal ? undefined : undefined);
