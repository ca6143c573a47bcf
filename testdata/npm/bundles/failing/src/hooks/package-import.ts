import { helper } from '#lib/helper';

export default () => ({ additionalContext: helper() });
