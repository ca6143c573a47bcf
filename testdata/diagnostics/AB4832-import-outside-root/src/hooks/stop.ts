import { shared } from '../../../shared/policy';

export default () => shared;
