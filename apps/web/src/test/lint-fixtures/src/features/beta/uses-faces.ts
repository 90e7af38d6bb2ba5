// Good: another feature through its index.ts and its on-demand entry.
import { alphaName } from '../alpha';

export const betaName = `beta after ${alphaName}`;
export const loadPanel = () => import('../alpha/alpha-panel.lazy');
