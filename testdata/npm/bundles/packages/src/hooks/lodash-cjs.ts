// A CommonJS package: a named import and the default import.
import { camelCase } from 'lodash';
import _ from 'lodash';

export default () => ({ additionalContext: `lodash ${camelCase('hello big world')} ${_.chunk([1, 2, 3], 2).length}` });
