import type { TGenerationMode } from '@mirra/contracts';
import { startRuntime } from '../app/runtime.js';
import { createEngineRegistry, type GenerationEngine } from '../engines/index.js';
import type { Storage } from '../shared/storage/storage.js';

/**
 * `npm run worker` with work that never finishes, for tests that kill a worker mid-job: every
 * generation stops inside the engine and every training at its first model photo, both after
 * claiming their work, so a test sees it IN_PROGRESS before it kills the process.
 */
const stallingEngine: GenerationEngine = {
  name: 'local',
  supports: (_mode: TGenerationMode) => true,
  async start(_request, context) {
    await context.onProgress(10);
    return new Promise<never>(() => {});
  },
};

function stallOnModelPhotos(storage: Storage): Storage {
  return {
    ...storage,
    get: (key) => (key.startsWith('models/') ? new Promise<never>(() => {}) : storage.get(key)),
  };
}

const runtime = await startRuntime({
  api: false,
  worker: true,
  adjustDeps: (deps) => ({
    engines: createEngineRegistry(deps.config, [stallingEngine]),
    storage: stallOnModelPhotos(deps.storage),
  }),
});
runtime.deps.logger.info('Mirra worker is running');
