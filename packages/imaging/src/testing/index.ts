/**
 * Test helpers (`@mirra/imaging/testing`): real public-domain face photos from Debian packages,
 * the colour measurement of a face swap, picture-quality measures (PSNR, SSIM) and a photo aged like
 * an old print, and live-check camera frames (a head turned, a print tilted). For tests and benchmarks only; the server never bundles it.
 */
export { measureSwapColour, type SwapColourMeasurement } from './face-swap-colour.js';
export { meanAbsoluteError, psnr, ssim, type RgbBytes } from './image-quality.js';
export { ageLikeOldPrint } from './old-photo.js';
export { tiltedPrint, turnedHead } from './live-check-frames.js';
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
