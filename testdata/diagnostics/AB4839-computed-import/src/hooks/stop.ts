const checks = ['lint', 'test'];

export default async () => {
  for (const check of checks) {
    await import(`./checks/${check}.ts`);
  }
};
