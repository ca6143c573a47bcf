// A route renders asynchronously: a plain function is not a route component.
export default function Guard() {
  return null;
}
