import { policy } from './policy';
import { z } from 'zod';

export default () => (policy(z) ? undefined : undefined);
