import { stopWord } from './words';

export default () => (stopWord.length ? undefined : undefined);
