export const alphaRule = 'alpha';
