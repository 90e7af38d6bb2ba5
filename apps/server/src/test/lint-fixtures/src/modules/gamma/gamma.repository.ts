export type GammaRow = { id: number };
export const gammaRepository = { table: 'gamma' };
