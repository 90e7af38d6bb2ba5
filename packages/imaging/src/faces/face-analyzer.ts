import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Tf from '@tensorflow/tfjs';
import type * as HumanModule from '@vladmandic/human';
import type { Config, FaceResult, Human } from '@vladmandic/human';
import sharp from 'sharp';
import {
  FACE_CROP_SIZE,
  noseBridgeLineContrast,
  normalisedSharpness,
  meanLuminance,
  toLuminance,
} from './face-pixels.models.js';
import type { Box, FaceAnalysis, FaceLandmarks, Point3 } from './faces.types.js';

/** Longest side the detector sees: enough for faces down to ~40 px, and ~0.2 s per photo on 2 cores. */
export const ANALYSIS_MAX_SIDE = 1024;

/** Enough for "somebody else is in the photo"; the check only needs to know there is more than one. */
const MAX_FACES = 10;

export interface AnalyzeOptions {
  /**
   * Also run Human's antispoof and liveness models (each face gets `real` and `live`, 0–1). Off
   * for ordinary photos: those scores only mean something on a camera frame of a person.
   */
  spoofScores?: boolean;
}

export interface FaceAnalyzer {
  /** Every face in the photo, largest first, with what the photo checks and the face profile need. */
  analyze(image: Buffer, options?: AnalyzeOptions): Promise<FaceAnalysis>;
  /** Loads the models ahead of the first photo (e.g. when a worker starts). */
  warmUp(): Promise<void>;
}

/**
 * Face analysis with @vladmandic/human (MIT; blazeface detector, 478-point mesh with iris, faceres
 * descriptor), on plain tfjs with the WebAssembly backend. Its weights ship inside the npm package
 * and are read from node_modules: nothing is fetched at run time.
 */
export function createFaceAnalyzer(): FaceAnalyzer {
  return {
    async warmUp() {
      await loadHumanOnce();
    },
    async analyze(image, options = {}) {
      const decoded = await decodeForAnalysis(image);
      const human = await loadHumanOnce();
      const faces = await detectFaces(human, decoded, options.spoofScores === true);
      const analysed = await Promise.all(faces.map((face) => describeFace(face, decoded)));
      analysed.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
      return {
        image: {
          width: decoded.width,
          height: decoded.height,
          originalWidth: decoded.originalWidth,
          originalHeight: decoded.originalHeight,
          meanLuminance: meanLuminance(toLuminance(decoded.rgb, 3)),
        },
        faces: analysed,
      };
    },
  };
}

interface DecodedImage {
  rgb: Buffer;
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
}

async function decodeForAnalysis(image: Buffer): Promise<DecodedImage> {
  const pipeline = sharp(image, { limitInputPixels: 100_000_000 })
    // Phones store portraits sideways with an EXIF orientation; the detector needs upright faces.
    .rotate()
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb');
  const metadata = await sharp(image, { limitInputPixels: 100_000_000 }).metadata();
  const { data, info } = await pipeline
    .resize({
      width: ANALYSIS_MAX_SIDE,
      height: ANALYSIS_MAX_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
  // Orientations 5–8 swap the sides: the original size is reported as the user sees the photo.
  const isSwapped = (metadata.orientation ?? 1) >= 5;
  const originalWidth = (isSwapped ? metadata.height : metadata.width) ?? info.width;
  const originalHeight = (isSwapped ? metadata.width : metadata.height) ?? info.height;
  return { rgb: data, width: info.width, height: info.height, originalWidth, originalHeight };
}

async function detectFaces(human: Human, decoded: DecodedImage, spoofScores: boolean): Promise<FaceResult[]> {
  const tf = human.tf as typeof Tf;
  const input = tf.tensor3d(new Int32Array(decoded.rgb), [decoded.height, decoded.width, 3], 'int32');
  try {
    const result = await human.detect(
      input,
      spoofScores ? { face: { antispoof: { enabled: true }, liveness: { enabled: true } } } : undefined,
    );
    if (result.error) throw new Error(`face analysis failed: ${result.error}`);
    return result.face;
  } finally {
    input.dispose();
  }
}

async function describeFace(face: FaceResult, decoded: DecodedImage) {
  const box = clampBox({ x: face.box[0], y: face.box[1], width: face.box[2], height: face.box[3] }, decoded);
  const mesh = face.mesh.map((point): Point3 => [point[0] ?? 0, point[1] ?? 0, point[2] ?? 0]);
  const crop = await faceCropLuminance(decoded, box);
  const landmarks = pickLandmarks(mesh);
  const angle = face.rotation?.angle ?? { yaw: 0, pitch: 0, roll: 0 };
  return {
    box,
    score: face.score,
    detectionScore: face.boxScore,
    meshScore: face.faceScore,
    mesh,
    landmarks,
    descriptor: face.embedding ?? [],
    yaw: angle.yaw,
    pitch: angle.pitch,
    roll: angle.roll,
    ...(face.real === undefined ? {} : { real: face.real }),
    ...(face.live === undefined ? {} : { live: face.live }),
    crop: {
      meanLuminance: meanLuminance(crop),
      sharpness: normalisedSharpness(crop, FACE_CROP_SIZE, FACE_CROP_SIZE),
      noseBridgeLineContrast: noseBridgeLineContrast(crop, FACE_CROP_SIZE, box, landmarks),
    },
  };
}

function clampBox(box: Box, image: { width: number; height: number }): Box {
  const x = Math.max(0, Math.floor(box.x));
  const y = Math.max(0, Math.floor(box.y));
  const right = Math.min(image.width, Math.ceil(box.x + box.width));
  const bottom = Math.min(image.height, Math.ceil(box.y + box.height));
  return { x, y, width: Math.max(1, right - x), height: Math.max(1, bottom - y) };
}

/**
 * The face box resampled to a fixed square of luminance: sharpness and the glasses measure are
 * compared against fixed thresholds, so they must not depend on how many pixels the face covers.
 */
async function faceCropLuminance(decoded: DecodedImage, box: Box): Promise<Uint8Array> {
  const data = await sharp(decoded.rgb, {
    raw: { width: decoded.width, height: decoded.height, channels: 3 },
  })
    .extract({ left: box.x, top: box.y, width: box.width, height: box.height })
    .resize(FACE_CROP_SIZE, FACE_CROP_SIZE, { fit: 'fill' })
    .raw()
    .toBuffer();
  return toLuminance(data, 3);
}

/** The mesh indices (MediaPipe face mesh numbering) the rest of the app uses by name. */
const LANDMARK_INDICES = {
  // "Right" and "left" are the person's own: their right eye is on the image's left.
  rightEyeOuter: 33,
  rightEyeInner: 133,
  leftEyeInner: 362,
  leftEyeOuter: 263,
  rightEyeUpper: 159,
  rightEyeLower: 145,
  leftEyeUpper: 386,
  leftEyeLower: 374,
  rightBrowInner: 55,
  leftBrowInner: 285,
  noseBridge: 168,
  noseTip: 1,
  mouthRight: 61,
  mouthLeft: 291,
  chin: 152,
  rightCheek: 234,
  leftCheek: 454,
} as const;

function pickLandmarks(mesh: Point3[]): FaceLandmarks {
  const landmarks = {} as Record<keyof typeof LANDMARK_INDICES, Point3>;
  for (const [name, index] of Object.entries(LANDMARK_INDICES)) {
    landmarks[name as keyof typeof LANDMARK_INDICES] = mesh[index] ?? [0, 0, 0];
  }
  return landmarks;
}

// One Human per process, however many analysers exist (tests build several): its models take
// a while to load and tfjs' backend is process-wide anyway.
let loading: Promise<Human> | null = null;
// detect() is not re-entrant (it keeps per-instance state between stages): one photo at a time.
let queue: Promise<unknown> = Promise.resolve();

function loadHumanOnce(): Promise<Human> {
  loading ??= loadHuman().catch((error: unknown) => {
    // A failed load is retried by the next photo rather than remembered for the process's life.
    loading = null;
    throw error;
  });
  return loading;
}

async function loadHuman(): Promise<Human> {
  const require = createRequire(import.meta.url);
  const tf = await import('@tensorflow/tfjs');
  await import('@tensorflow/tfjs-backend-wasm');
  registerFileLoadRouter(tf);
  // The package's exports only map ".", to a build that needs tfjs-node (which cannot install
  // offline); the wasm build sits next to it and is loaded by its absolute path.
  const humanDir = path.dirname(require.resolve('@vladmandic/human'));
  const humanModule = require(path.join(humanDir, 'human.node-wasm.js')) as typeof HumanModule;
  const wasmDir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')), '..');
  const config: Partial<Config> = {
    backend: 'wasm',
    // file:// URLs, read by the load router below; a trailing separator is required by both.
    modelBasePath: `${pathToFileURL(path.join(humanDir, '..', 'models')).href}/`,
    wasmPath: `${path.join(wasmDir, 'dist')}${path.sep}`,
    debug: false,
    warmup: 'none',
    // Every call is a different photo: never reuse the previous result because inputs look alike.
    cacheSensitivity: 0,
    skipAllowed: false,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      // Rotation correction keeps the mesh (and so pose and descriptor) right on tilted heads.
      detector: { rotation: true, maxDetected: MAX_FACES, minConfidence: 0.3, return: false },
      mesh: { enabled: true },
      iris: { enabled: true },
      description: { enabled: true },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
    },
  };
  const human = new humanModule.Human(config);
  await human.load();
  await human.tf.ready();
  if (human.tf.getBackend() !== 'wasm') {
    throw new Error(`face analysis needs the wasm backend, got ${String(human.tf.getBackend())}`);
  }
  const detect = human.detect.bind(human);
  human.detect = (input, userConfig) => {
    const run = queue.then(() => detect(input, userConfig));
    queue = run.catch(() => undefined);
    return run;
  };
  return human;
}

let isRouterRegistered = false;

/** tfjs in Node has no file:// handler without tfjs-node: model files are read from disk here. */
function registerFileLoadRouter(tf: typeof Tf) {
  if (isRouterRegistered) return;
  isRouterRegistered = true;
  const readFileAsResponse = async (input: string | URL | Request) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const body = await readFile(fileURLToPath(url));
    const type = url.endsWith('.json') ? 'application/json' : 'application/octet-stream';
    return new Response(body, { status: 200, headers: { 'content-type': type } });
  };
  const router = (url: string | string[]) => {
    const href = Array.isArray(url) ? url[0] : url;
    if (typeof href !== 'string' || !href.startsWith('file://')) return null;
    return tf.io.http(href, { fetchFunc: readFileAsResponse });
  };
  // Routers answer null for URLs that are not theirs (tfjs' own do); its type omits that.
  tf.io.registerLoadRouter(router as Parameters<typeof tf.io.registerLoadRouter>[0]);
}
