import bufferutil from 'bufferutil';

export default () => ({ additionalContext: typeof bufferutil.mask });
