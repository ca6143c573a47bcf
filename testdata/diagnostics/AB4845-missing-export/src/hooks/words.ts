export const stopWords = ['done'];
