// A bare subpath of a package without an `exports` map.
import satisfies from 'semver/functions/satisfies';

export default () => ({ additionalContext: `semver ${satisfies('1.2.3', '^1.0.0')}` });
