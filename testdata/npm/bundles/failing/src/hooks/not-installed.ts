// A typo in a package name.
import { kebabCase } from 'lodash-ess';

export default () => ({ additionalContext: kebabCase('x') });
