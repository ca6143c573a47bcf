export default { plugin: { name: 'ÿþ' } };
