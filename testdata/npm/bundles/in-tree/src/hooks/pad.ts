import pad from '@fixtures/dynamic-require';

export default () => ({ additionalContext: pad('x') });
