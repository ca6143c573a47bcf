import { hash } from 'fast-hash';

export default () => (hash('x') > 0 ? undefined : undefined);
