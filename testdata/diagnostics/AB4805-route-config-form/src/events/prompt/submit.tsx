// A function named `config` is not a config object.
export function config() {
  return { targets: ['claude'] };
}

export default async function Prompt() {
  return null;
}
