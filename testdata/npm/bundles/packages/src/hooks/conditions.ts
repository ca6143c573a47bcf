// `exports` with node/browser conditions: the node build is taken.
import { v5, validate } from 'uuid';

export default () => ({ additionalContext: `uuid ${validate(v5('agent-bundle', v5.DNS))}` });
