import { open } from 'tiny-sqlite';

export default () => ({ additionalContext: String(open(':memory:')) });
