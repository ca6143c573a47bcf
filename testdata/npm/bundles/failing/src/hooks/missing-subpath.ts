import satisfies from 'semver/functions/satisfies-all';

export default () => ({ additionalContext: String(satisfies) });
