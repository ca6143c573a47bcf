const handlers = { start() {} };

export default handlers;
