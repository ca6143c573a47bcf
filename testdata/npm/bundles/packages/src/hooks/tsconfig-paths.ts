// tsconfig.json `paths`.
import { shout } from '@/lib/shout';

export default () => ({ additionalContext: shout('paths') });
