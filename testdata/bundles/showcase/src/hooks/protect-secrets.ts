import { isSecretPath } from '../lib/policy';

interface BeforeToolEvent {
  readonly toolInput: { readonly file_path?: string };
}

export default (event: BeforeToolEvent) => {
  const path = event.toolInput.file_path ?? '';
  return isSecretPath(path)
    ? { outcome: 'deny' as const, reason: `${path} holds secrets; edit it by hand.` }
    : undefined;
};
