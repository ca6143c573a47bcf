import bufferutil from 'bufferutil';
import figlet from 'figlet';

export default () => {
  // The compiled addon prints as native code; its JavaScript fallback would not.
  const native = String(bufferutil.mask).includes('[native code]');
  const banner = figlet.textSync('ok', { font: 'Standard' }).split('\n').length;
  return { additionalContext: `native ${native} figlet ${banner}` };
};
