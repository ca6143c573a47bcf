import { parse } from 'umd-parser';

export default () => (parse(' x ') ? undefined : undefined);
