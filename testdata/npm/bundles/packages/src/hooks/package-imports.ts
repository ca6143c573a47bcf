// package.json `imports` of the bundle's own package.
import { greet } from '#lib/greet';

export default () => ({ additionalContext: greet('imports') });
