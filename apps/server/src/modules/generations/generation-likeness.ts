import { modeDeclaration, type TGenerationMode } from '@mirra/contracts';
import { descriptorSimilarity } from '@mirra/imaging';
import type { EngineOutput } from '../../engines/index.js';
import { findUsableModel } from '../models/index.js';
import type { GenerationsDeps } from './generations.deps.js';
import type { GenerationRow } from './generations.repository.js';

/**
 * How much a face result looks like the person of its digital model: the best descriptor
 * similarity (0–1) of the faces in the picture to the model's identity, 0 when the picture shows
 * no face. Null for what is not checked: a mode without a digital model, a video, a model gone
 * meanwhile, or the check turned off (LIKENESS_THRESHOLD=0).
 */
export async function likenessOf(
  deps: GenerationsDeps,
  generation: GenerationRow,
  output: EngineOutput,
): Promise<number | null> {
  const { inputs } = modeDeclaration(generation.mode as TGenerationMode);
  if (!inputs.model || !generation.modelUuid || deps.config.likenessThreshold <= 0) return null;
  if (!output.contentType.startsWith('image/')) return null;
  const model = await findUsableModel(deps, generation.userId, generation.modelUuid);
  if (!model) return null;
  // One analysis at the analyser's own size (at most 1024 px on the long side): a face a quarter
  // of the picture wide keeps its likeness there (0.85–1.0 on the test portraits), while at 512 px
  // it drops to 0.45–0.6, too near the threshold to judge.
  const { faces } = await deps.faceAnalyzer.analyze(output.data);
  return Math.max(0, ...faces.map((face) => descriptorSimilarity(face.descriptor, model.profile.descriptor)));
}
