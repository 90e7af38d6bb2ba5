export const alphaRepository = { table: 'alpha' };
