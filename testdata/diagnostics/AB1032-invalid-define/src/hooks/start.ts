export default () => ({ additionalContext: String(process.env.MODE) });
