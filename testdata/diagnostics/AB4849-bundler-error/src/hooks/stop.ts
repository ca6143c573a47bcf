import { stopWords } from './words';

export default () => (stopWords.length ? undefined : undefined);
