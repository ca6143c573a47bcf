export const words = ['done'];
