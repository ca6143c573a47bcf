export const config = { targets: ['claude'] };
