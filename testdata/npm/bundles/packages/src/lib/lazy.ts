export const lazyWord = 'Lazy Module';
