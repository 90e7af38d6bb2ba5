import { GenerationStatus, LIVE_CHECK_FRAME_NAMES, type TLiveCheckResult } from '@mirra/contracts';
import { averageDescriptor, descriptorSimilarity, type FaceAnalysis } from '@mirra/imaging';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError, fieldError } from '../../shared/errors.js';
import { detectImageType, isUuid } from '../uploads/index.js';
import type { UserRow } from '../users/index.js';
import { judgeLiveCheck, LIVE_CHECK_RULES, type LiveCheckProblem } from './live-check.models.js';
import type { ModelsDeps } from './models.deps.js';
import { consentRequired, modelNotFound, trainingInProgress } from './models.errors.js';
import { isTraining } from './models.models.js';
import { modelsRepository, type ModelSummaryRow } from './models.repository.js';

/** A person may try the check this often per model and hour (each try analyses three frames). */
const CHECKS_PER_HOUR = 20;

export interface LiveCheckFrame {
  name: string;
  data: Buffer;
  truncated: boolean;
}

/**
 * The live check before training: the three frames are analysed (with the antispoof and
 * liveness scores), judged against the model's good photos, and only the verdict, its measures
 * and the frames' mean descriptor are kept (replacing the model's previous check). The frames
 * are never written anywhere: they live in this request's memory only.
 */
export async function takeLiveCheck(
  deps: ModelsDeps,
  user: UserRow,
  uuid: string,
  readFrames: () => Promise<LiveCheckFrame[]>,
): Promise<TLiveCheckResult> {
  if (!isUuid(uuid)) throw modelNotFound();
  const model = await modelsRepository.findOwned(deps.db, user.id, uuid);
  if (!model) throw modelNotFound();
  // Another person's face is confirmed by that person, through the consent link.
  if (model.subject === 'other') throw consentRequired('missing');
  return checkFacesOfModel(deps, model, readFrames);
}

/**
 * The check itself, for the owner's own model or for the person a model of someone else is of
 * (through the consent link): the same frames, rules and threshold either way. The verdict is
 * kept as the model's check (the row names the model's owner).
 */
export async function checkFacesOfModel(
  deps: ModelsDeps,
  model: Pick<ModelSummaryRow, 'id' | 'uuid' | 'userId' | 'status'>,
  readFrames: () => Promise<LiveCheckFrame[]>,
): Promise<TLiveCheckResult> {
  if (isTraining(model.status)) throw trainingInProgress();
  if (model.status === GenerationStatus.COMPLETED) {
    throw new AppError({
      code: 'models.already_trained',
      detail: 'This model is trained already. Add photos to it, or create another model.',
    });
  }
  const images = orderedFrames(await readFrames());
  await deps.rateLimiter.hit([
    { key: `models:live-check:${model.uuid}`, limit: CHECKS_PER_HOUR, windowSeconds: 3600 },
  ]);
  const reference = await referenceDescriptor(deps.db, model.id);
  if (reference.length === 0) throw liveCheckNeedsPhotos();
  const analyses: FaceAnalysis[] = [];
  // One after another: the analyser runs one image at a time anyway, and this keeps memory flat.
  for (const image of images) analyses.push(await deps.faceAnalyzer.analyze(image, { spoofScores: true }));
  const verdict = judgeLiveCheck(
    analyses.map((analysis) => analysis.faces),
    reference,
  );
  const descriptor = averageDescriptor(
    analyses.flatMap((analysis) => (analysis.faces.length === 1 ? [analysis.faces[0]!.descriptor] : [])),
  );
  await modelsRepository.saveLiveCheck(deps.db, {
    modelId: model.id,
    userId: model.userId,
    passed: verdict.passed,
    problems: verdict.problems,
    measures: {
      yaws: verdict.yaws,
      similarity: verdict.similarity,
      nonPlanarMotion: verdict.nonPlanarMotion,
      real: verdict.real,
      live: verdict.live,
    },
    descriptor,
    checkedAt: deps.now(),
  });
  deps.logger.info(
    { model: model.uuid, passed: verdict.passed, problems: verdict.problems, ...roundedMeasures(verdict) },
    'model live check',
  );
  return { passed: verdict.passed, problems: verdict.problems };
}

/**
 * Whether the model's latest live check lets training start: it passed, and the person in it is
 * still the person in the model's good photos (photos may have been added or removed since).
 */
export async function liveCheckProblem(
  db: DbOrTx,
  modelId: number,
): Promise<'missing' | 'refused' | 'outdated' | null> {
  const check = await modelsRepository.findLiveCheck(db, modelId);
  if (!check) return 'missing';
  if (!check.passed) return 'refused';
  const reference = await referenceDescriptor(db, modelId);
  if (descriptorSimilarity(reference, check.descriptor) < LIVE_CHECK_RULES.minSimilarity) return 'outdated';
  return null;
}

/**
 * Whether the model's face passed a live check: the owner's own (for a model of themselves) or
 * the person's through the consent link (a model of someone else, whose consent stands). A model
 * trained before live checks existed has none.
 */
export async function hasVerifiedFace(db: DbOrTx, modelId: number): Promise<boolean> {
  const check = await modelsRepository.findLiveCheck(db, modelId);
  return Boolean(check?.passed);
}

/** The model's latest check as its screen shows it. */
export async function liveCheckState(db: DbOrTx, modelId: number): Promise<'passed' | 'refused' | null> {
  const problem = await liveCheckProblem(db, modelId);
  if (problem === null) return 'passed';
  return problem === 'refused' ? 'refused' : null;
}

export const liveCheckRequired = (reason: 'missing' | 'refused' | 'outdated') =>
  new AppError({
    code: 'models.live_check_required',
    detail:
      reason === 'outdated'
        ? "The model's photos changed since your live check. Take the check again to start training."
        : 'Take the live check (three quick camera shots of your face) to start training.',
    extra: { reason },
  });

const liveCheckNeedsPhotos = () =>
  new AppError({
    code: 'models.live_check_needs_photos',
    detail: 'Add good photos of the face first: the live check compares it with them.',
  });

/** The model's identity: the mean descriptor of the main face of its good photos. */
async function referenceDescriptor(db: DbOrTx, modelId: number): Promise<number[]> {
  const photos = await modelsRepository.listPhotosWithAnalysis(db, modelId);
  return averageDescriptor(
    photos.flatMap((photo) => {
      const descriptor = photo.ok ? photo.analysis.faces[0]?.descriptor : undefined;
      return descriptor?.length ? [descriptor] : [];
    }),
  );
}

/** The frames in LIVE_CHECK_FRAME_NAMES order, each a readable JPEG, PNG or WebP image. */
function orderedFrames(frames: LiveCheckFrame[]): Buffer[] {
  const byName = new Map(frames.map((frame) => [frame.name, frame]));
  const problems: Record<string, string[]> = {};
  const images: Buffer[] = [];
  for (const name of LIVE_CHECK_FRAME_NAMES) {
    const frame = byName.get(name);
    if (!frame || frame.truncated || !detectImageType(frame.data)) {
      problems[name] = ['Send this camera frame as a JPEG, PNG or WebP image.'];
      continue;
    }
    images.push(frame.data);
  }
  if (Object.keys(problems).length > 0) throw fieldError('common.validation', problems);
  return images;
}

function roundedMeasures(verdict: ReturnType<typeof judgeLiveCheck>) {
  const round = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 1000);
  return {
    yaws: verdict.yaws.map(round),
    similarity: round(verdict.similarity),
    nonPlanarMotion: round(verdict.nonPlanarMotion),
    real: verdict.real.map(round),
    live: verdict.live.map(round),
  };
}

export type { LiveCheckProblem };
