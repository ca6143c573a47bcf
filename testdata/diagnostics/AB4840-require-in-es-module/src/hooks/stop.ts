import { join } from 'node:path';

export default () => {
  const fs = require('node:fs');
  return fs.existsSync(join('a', 'b')) ? undefined : undefined;
};
