import withAttributes from '../data/rules.json' with { type: 'json' };
import plain from '../data/rules.json';

export default () => ({ additionalContext: `json ${withAttributes.blocked.length} ${plain.name}` });
