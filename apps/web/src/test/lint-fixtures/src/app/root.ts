// Good: the composition root uses features through their faces (index.ts, *.lazy.ts).
import { alphaName } from '../features/alpha';

export const root = alphaName;
export const loadAlphaPanel = () => import('../features/alpha/alpha-panel.lazy');
