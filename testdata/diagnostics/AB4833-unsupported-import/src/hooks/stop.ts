import rules from './rules.txt';

export default () => (rules ? undefined : undefined);
