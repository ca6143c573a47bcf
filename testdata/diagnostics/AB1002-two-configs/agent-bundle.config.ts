export default { hooks: {} };
