export const box = 'box';
