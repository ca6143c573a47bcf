// semver 7 for this module, semver 6 (nested) for make-dir: each importer gets its own.
import semver from 'semver';
import makeDir from 'make-dir';

export default () => ({ additionalContext: `semver ${semver.major('7.1.0')} make-dir ${typeof makeDir.sync}` });
