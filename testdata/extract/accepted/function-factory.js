export default function config() {
  return { hooks: { afterTool: './src/hooks/record.js' } };
}
