import { kebabCaze } from 'lodash-es';

export default () => ({ additionalContext: kebabCaze('x') });
