import { check } from 'broken-package';

export default () => check();
