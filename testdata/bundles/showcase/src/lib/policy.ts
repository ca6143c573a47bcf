export const blockedCommands = ['rm -rf /', 'git push --force'];

export function isSecretPath(path: string): boolean {
  return ['.env', '.env.local', 'id_rsa'].some((name) => path.endsWith(name));
}
