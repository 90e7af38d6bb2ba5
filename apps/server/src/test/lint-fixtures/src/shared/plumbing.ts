export const plumbing = 'shared';
