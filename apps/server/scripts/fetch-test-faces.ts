/**
 * Fills the cache of public-domain test portraits from Debian packages (see packages/imaging/src/testing/test-faces.ts),
 * so a CI run fails here, with the reason, rather than in the middle of the face tests.
 * Run: `node --import tsx apps/server/scripts/fetch-test-faces.ts`.
 */
import { loadTestFaces, testFacesDir } from '@mirra/imaging/testing';

const faces = await loadTestFaces();
console.log(`test faces ready in ${testFacesDir()}: ${Object.keys(faces).join(', ')}`);
