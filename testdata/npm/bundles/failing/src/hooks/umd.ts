// jsonc-parser's main entry is UMD: its require('./impl/...') goes through a parameter.
import { parse } from 'jsonc-parser';

export default () => ({ additionalContext: String(parse('{}')) });
