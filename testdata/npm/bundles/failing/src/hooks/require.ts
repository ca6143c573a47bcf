import { basename } from 'node:path';

export default () => {
  const { readFileSync } = require('node:fs');
  return { additionalContext: basename(String(readFileSync)) };
};
