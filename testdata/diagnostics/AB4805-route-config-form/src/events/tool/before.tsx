// A route's config is an object literal.
export const config = ['claude'];

export default async function Guard() {
  return null;
}
