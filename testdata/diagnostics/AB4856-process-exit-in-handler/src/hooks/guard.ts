export default (event: { tool: { command?: string } }) => {
  if (event.tool.command?.includes('rm -rf')) {
    console.error('refused');
    process.exit(2);
  }
};
