export default async function Route() {
  return null;
}
