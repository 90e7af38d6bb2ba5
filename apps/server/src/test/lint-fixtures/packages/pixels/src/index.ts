export const pixels = 'pixels';
