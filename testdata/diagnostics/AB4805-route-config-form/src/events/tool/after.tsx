// A route's config re-exported from another module cannot be read without running code.
export { config } from '../../shared-config';

export default async function After() {
  return null;
}
