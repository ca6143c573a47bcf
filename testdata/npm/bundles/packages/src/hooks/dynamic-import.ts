// import() of static specifiers, and top-level await.
const { kebabCase } = await import('lodash-es');
const settings = await Promise.resolve({ prefix: 'dyn' });

export default async () => {
  const { lazyWord } = await import('../lib/lazy.ts');
  return { additionalContext: `${settings.prefix} ${kebabCase(lazyWord)}` };
};
