// CommonJS that requires a JSON database from another package.
import mime from 'mime-types';

export default () => ({ additionalContext: `mime ${mime.lookup('notes.json')}` });
