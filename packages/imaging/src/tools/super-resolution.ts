import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Tf from '@tensorflow/tfjs';
import { runTiled } from './tiling.models.js';

/**
 * Learned super-resolution with the ESRGAN "slim" models of @upscalerjs/esrgan-slim (MIT; a small
 * residual dense network trained on DIV2K, about 0.9 MB of weights per scale, shipped inside the
 * npm package). They are plain Keras layers models, loaded from node_modules with the repo's own
 * tfjs on the WebAssembly backend the face analysis already uses: nothing is fetched, and the
 * package's own runtime (which wants an older tfjs) is not used.
 *
 * The slim model was chosen over esrgan-medium: on 2 cores medium takes about 2.5× as long per
 * tile for a gain on portraits that is small next to the cost (measured in bench/upscale.bench.ts).
 */

/** Scales the bundled weights exist for that this app uses (the package also has ×3 and ×8). */
export type ModelScale = 2 | 4;

/** Input pixels per tile side and the context around them: ~0.5 s per tile on one core. */
export const TILE_CORE = 112;
export const TILE_MARGIN = 8;

export interface SuperResolveOptions {
  /** Awaited after each tile with the share done (0–1]: report progress, yield, or throw to stop. */
  afterTile?: (fraction: number) => Promise<void> | void;
}

/** RGB bytes (3 channels) `scale`× larger through the model, tile by tile. */
export async function superResolve(
  image: { data: Uint8Array; width: number; height: number },
  scale: ModelScale,
  options: SuperResolveOptions = {},
): Promise<{ data: Buffer; width: number; height: number }> {
  const { tf, model } = await loadModel(scale);
  return runTiled({
    image,
    scale,
    core: TILE_CORE,
    margin: TILE_MARGIN,
    afterTile: options.afterTile,
    async infer(tile) {
      const output = tf.tidy(() => {
        const input = tf.tensor4d(tile.pixels, [1, tile.height, tile.width, 3]);
        // The RDN variants work on 0–255 in and out.
        return (model.predict(input) as Tf.Tensor).clipByValue(0, 255);
      });
      try {
        return (await output.data()) as Float32Array;
      } finally {
        output.dispose();
      }
    },
  });
}

/** The folder of the package's weights for one scale (models/x<scale>/model.json and its shard). */
export function findEsrganModelFolder(scale: ModelScale): string {
  const require = createRequire(import.meta.url);
  // The package's exports hide its models/ folder: find the package root from its entry point.
  let dir = path.dirname(require.resolve('@upscalerjs/esrgan-slim'));
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, 'models', `x${scale}`);
    if (existsSync(path.join(candidate, 'model.json'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error(`The ESRGAN ×${scale} weights (@upscalerjs/esrgan-slim models/) were not found.`);
}

const loading = new Map<ModelScale, Promise<{ tf: typeof Tf; model: Tf.LayersModel }>>();

function loadModel(scale: ModelScale) {
  let model = loading.get(scale);
  if (!model) {
    model = load(scale).catch((error: unknown) => {
      loading.delete(scale);
      throw error;
    });
    loading.set(scale, model);
  }
  return model;
}

async function load(scale: ModelScale) {
  const tf = await tfOnWasm();
  const folder = findEsrganModelFolder(scale);
  const artifacts = JSON.parse(await readFile(path.join(folder, 'model.json'), 'utf8')) as {
    modelTopology: object;
    weightsManifest: { paths: string[]; weights: Tf.io.WeightsManifestEntry[] }[];
    format?: string;
    generatedBy?: string;
    convertedBy?: string;
  };
  const buffers = await Promise.all(
    artifacts.weightsManifest
      .flatMap((group) => group.paths)
      .map((file) => readFile(path.join(folder, file))),
  );
  const weightData = Buffer.concat(buffers);
  const model = await tf.loadLayersModel(
    tf.io.fromMemory({
      modelTopology: artifacts.modelTopology,
      weightSpecs: artifacts.weightsManifest.flatMap((group) => group.weights),
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

/** tfjs on its WebAssembly backend (set once per thread; the face analysis shares it). */
async function tfOnWasm(): Promise<typeof Tf> {
  const tf = await import('@tensorflow/tfjs');
  if (tf.getBackend() !== 'wasm') {
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    const require = createRequire(import.meta.url);
    const dist = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')), '..', 'dist');
    wasm.setWasmPaths(`${dist}${path.sep}`);
    await tf.setBackend('wasm');
    await tf.ready();
  }
  return tf;
}
