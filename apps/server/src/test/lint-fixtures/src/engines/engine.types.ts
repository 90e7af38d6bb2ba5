export const engineName = 'local';
