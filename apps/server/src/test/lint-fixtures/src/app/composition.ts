export const compositionRoot = 'app';
