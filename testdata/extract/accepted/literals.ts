export default {
  string: 'single',
  double: "double",
  template: `no substitutions`,
  separators: 30_000,
  negative: -1,
  positive: +2.5,
  hex: 0x10,
  yes: true,
  no: false,
  nothing: null,
  'quoted-key': [],
  nested: { deep: [1, [2, { three: 3 }]] },
};
