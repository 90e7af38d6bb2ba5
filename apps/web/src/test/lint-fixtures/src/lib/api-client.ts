export const api = { get: (path: string) => Promise.resolve(path) };
