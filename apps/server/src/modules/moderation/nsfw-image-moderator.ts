import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import type { ImageModerator } from './moderation.types.js';
import {
  isNsfwClass,
  judgeNsfwScores,
  NSFW_CLASSES,
  type NsfwScores,
  type NsfwThresholds,
} from './image-moderation.models.js';

/** nsfwjs' MobileNetV2 input: 224×224 RGB. */
const INPUT_SIZE = 224;

interface LoadedClassifier {
  classify(image: Buffer): Promise<NsfwScores>;
}

// One classifier per thread, however many deps objects exist (tests build several): loading
// takes seconds and tfjs' backend is process-wide anyway.
let classifier: Promise<LoadedClassifier> | null = null;

/**
 * The image moderator: nsfwjs' MobileNetV2, whose weights ship inside the npm package, on plain
 * tfjs with the WebAssembly backend (tfjs-node cannot install offline; the pure-JS backend is
 * ~25× slower). Nothing is fetched: the .wasm binaries are read from node_modules. The model is
 * loaded on first use and kept; `warmUp()` loads it ahead (e.g. when a worker starts).
 */
export function createNsfwImageModerator(options: {
  thresholds: NsfwThresholds;
  /**
   * Scores an image; classifyNsfw on this thread when not given, or the same function run on a
   * pool thread (the composition root's imaging threads) so inference leaves the event loop free.
   */
  classify?: (image: Buffer) => Promise<NsfwScores>;
}): ImageModerator & {
  warmUp(): Promise<void>;
} {
  const classify = options.classify ?? classifyNsfw;
  return {
    async warmUp() {
      if (options.classify) return;
      await loadClassifierOnce();
    },
    async check(image) {
      const scores = await classify(image);
      return { ...judgeNsfwScores(scores, options.thresholds), scores };
    },
  };
}

/** The classifier's scores for an image, on the calling thread (the model loads once per thread). */
export async function classifyNsfw(image: Buffer): Promise<NsfwScores> {
  const model = await loadClassifierOnce();
  return model.classify(image);
}

/** For MODERATION_IMAGES=false: every result is shown (e.g. a provider already moderates). */
export function createPassThroughImageModerator(): ImageModerator {
  return { check: async () => ({ flagged: false, categories: [], scores: {} }) };
}

function loadClassifierOnce(): Promise<LoadedClassifier> {
  classifier ??= loadClassifier().catch((error: unknown) => {
    // A failed load is retried by the next check rather than remembered for the process's life.
    classifier = null;
    throw error;
  });
  return classifier;
}

async function loadClassifier(): Promise<LoadedClassifier> {
  const tf = await import('@tensorflow/tfjs');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  const require = createRequire(import.meta.url);
  const wasmDir = path.join(
    path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')),
    'dist',
  );
  // A plain directory path (trailing separator included): in Node the backend reads the files.
  wasm.setWasmPaths(`${wasmDir}${path.sep}`);
  if (tf.getBackend() !== 'wasm') await tf.setBackend('wasm');
  await tf.ready();
  // `nsfwjs/core` plus one model definition: the package root would pull in every model's weights.
  const { load } = await import('nsfwjs/core');
  const { MobileNetV2Model } = await import('nsfwjs/models/mobilenet_v2');
  const model = await load('MobileNetV2', { modelDefinitions: [MobileNetV2Model] });

  return {
    async classify(image) {
      const { data, info } = await sharp(image, { limitInputPixels: 100_000_000 })
        .rotate()
        // Transparent areas judged as if on a white page, not on whatever colour hides under them.
        .flatten({ background: '#ffffff' })
        .resize(INPUT_SIZE, INPUT_SIZE, { fit: 'fill' })
        .toColourspace('srgb')
        .raw()
        .toBuffer({ resolveWithObject: true });
      if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
      const input = tf.tensor3d(new Int32Array(data), [INPUT_SIZE, INPUT_SIZE, 3], 'int32');
      try {
        const predictions = await model.classify(input, NSFW_CLASSES.length);
        const scores: NsfwScores = {};
        // The package's own class type does not resolve under NodeNext; its names are ours.
        for (const { className, probability } of predictions) {
          if (isNsfwClass(className)) scores[className] = probability;
        }
        return scores;
      } finally {
        input.dispose();
      }
    },
  };
}
