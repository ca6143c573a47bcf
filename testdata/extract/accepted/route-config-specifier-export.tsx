// A route's config exported by a specifier, under its own name or renamed.
const settings = { targets: ['claude'], tools: ['shell'], failClosed: true, maxInputBytes: 8388608 };

export { settings as config };

export default async function Guard() {
  return null;
}
