// The imaging threads' entry in the source tree (tests, `npm run dev`, the benches): loads
// imaging.thread.ts through tsx in the thread, since a thread does not inherit its parent's loader.
// The built server runs dist/imaging.thread.js instead. Lists the same exports as imaging.thread.ts.
import { register } from 'tsx/esm/api';

register();

export const { renderLocally, analyzeFaces, analyzeLiveFrame, warmUpFaces, classifyImage } =
  await import('./imaging.thread.ts');
