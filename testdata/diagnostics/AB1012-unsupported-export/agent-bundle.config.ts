import { makeConfig } from './make-config';

export default makeConfig({ hooks: {} });
