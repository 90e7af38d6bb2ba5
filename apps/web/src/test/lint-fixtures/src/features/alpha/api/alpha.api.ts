export const alphaApi = { get: () => Promise.resolve('alpha') };
