import { check } from 'linked-package';

export default () => check();
