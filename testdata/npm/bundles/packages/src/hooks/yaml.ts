// CommonJS entry that requires Node built-ins of its own.
import YAML from 'yaml';

export default () => ({ additionalContext: `yaml ${YAML.parse('a: [1, 2]').a.length} ${YAML.stringify({ b: true }).trim()}` });
