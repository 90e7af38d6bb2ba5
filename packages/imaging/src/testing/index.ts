/**
 * Test helpers (`@mirra/imaging/testing`): real public-domain face photos from Debian packages and
 * the colour measurement of a face swap. For tests and benchmarks only; the server never bundles it.
 */
export { measureSwapColour, type SwapColourMeasurement } from './face-swap-colour.js';
export {
  astronautPhotos,
  blurPhoto,
  composeSideBySide,
  darkenPhoto,
  loadTestFaces,
  makePhotoSet,
  shakePhoto,
  shrinkIntoCanvas,
  testFacesDir,
  type TestFaces,
  type TestPhotoName,
} from './test-faces.js';
