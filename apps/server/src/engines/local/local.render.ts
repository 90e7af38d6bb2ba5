import {
  aspectSize,
  STYLES,
  type TGenerationMode,
  type TGenerationNoteCode,
  type TStyle,
  type TVideoAspect,
} from '@mirra/contracts';
import {
  type EngineCapability,
  EngineError,
  engineNote,
  type EngineNote,
  type EngineContext,
  type EngineImage,
  type EngineOutput,
  type EngineRequest,
} from '../engine.types.js';
import {
  type FaceAnalyzer,
  facePhotoFromPrompt,
  faceSwapOnPhoto,
  describeNothingUnderstood,
  MAX_UPSCALE_SIDE,
  parseEditInstruction,
  applyEdits,
  LOCAL_ENGINE_DESCRIPTIONS,
  withLocalEngineLabel,
  decodePhoto,
  encodePng,
  type RawImage,
  describeScene,
  planScene,
  renderScene,
  applyStyle,
  FACE_KEEPING_STYLES,
  STYLE_NAMES,
  STYLING_MAX_SIDE,
  assertExecutable,
  bundledFfmpegPath,
  FfmpegFailedError,
  FfmpegMissingError,
  animatePhoto,
  animateScene,
  encodeFrames,
  frameCount,
  PhotoTooSmallError,
  sceneWithCameraMove,
  shapeForFrame,
  VIDEO_FPS,
  videoFrameSize,
  type AnimatedPhoto,
  type PersonSegmenter,
  type SceneMotion,
  UnusableInputError,
} from '@mirra/imaging';
import { facesIn, inAskedShape, singleImage } from './local.pictures.js';
import { talkingLocally } from './local.talking.js';
import { cameraPresetNote, SCENE_MOTION_NOTES } from './local.video-notes.js';
import { backgroundLocally, inpaintLocally, outpaintLocally, REPAIR_PIPELINES } from './local.tools.js';

/**
 * The offline pipeline of each mode the local engine serves (a mode without one is left to the
 * providers), and what it does there: image processing and drawing, no AI model. The create form
 * words the capability before the price, and the prompt helper writes only words it honours (no
 * "photorealistic" for a drawing).
 */
interface LocalPipeline {
  capability: EngineCapability;
  run(
    request: EngineRequest,
    context: EngineContext,
    progress: Progress,
    tools: LocalEngineTools & LocalVideoOptions,
  ): Promise<EngineOutput>;
}

const LOCAL_PIPELINES: Readonly<Partial<Record<TGenerationMode, LocalPipeline>>> = {
  simple: {
    capability: { ai: false, abilities: ['offline_drawing'] },
    run: (request, _context, progress) => simple(request, progress),
  },
  editing: {
    capability: { ai: false, abilities: ['photo_edits'] },
    run: (request, _context, progress, tools) => editing(request, progress, tools.personSegmenter),
  },
  styling: {
    capability: { ai: false, abilities: ['style_filters'] },
    run: (request, _context, progress, tools) => styling(request, progress, tools.faceAnalyzer),
  },
  face_swap: {
    capability: { ai: false, abilities: ['face_paste'] },
    run: (request, _context, progress, tools) =>
      faceSwap(request, progress, tools.faceAnalyzer, tools.personSegmenter),
  },
  // A pack's pictures are face photos from the model, one per prompt of the pack.
  photo_pack: {
    capability: { ai: false, abilities: ['face_paste'] },
    run: (request, _context, progress, tools) =>
      faceSwap(request, progress, tools.faceAnalyzer, tools.personSegmenter),
  },
  video: {
    capability: { ai: false, abilities: ['camera_move'] },
    run: (request, context, progress, tools) => animateLocally(request, context, progress, tools),
  },
  talking_photo: {
    capability: { ai: false, abilities: ['speaking_mouth'] },
    run: (request, context, progress, tools) => talkingLocally(request, context, progress, tools),
  },
  background: {
    capability: { ai: false, abilities: ['person_cut_out'] },
    run: (request, _context, progress, tools) => backgroundLocally(request, progress, tools.personSegmenter),
  },
  inpaint: {
    capability: { ai: false, abilities: ['fill_from_surroundings'] },
    run: (request, _context, progress) => inpaintLocally(request, progress),
  },
  outpaint: {
    capability: { ai: false, abilities: ['extend_edges'] },
    run: (request, _context, progress, tools) => outpaintLocally(request, progress, tools.personSegmenter),
  },
  ...REPAIR_PIPELINES,
};

/** What the offline engine does for each mode it serves (the create form words it before the price). */
export const LOCAL_ENGINE_CAPABILITIES: Readonly<Partial<Record<TGenerationMode, EngineCapability>>> =
  Object.fromEntries(Object.entries(LOCAL_PIPELINES).map(([mode, pipeline]) => [mode, pipeline.capability]));

export const LOCAL_ENGINE_MODES: ReadonlySet<TGenerationMode> = new Set(
  Object.keys(LOCAL_PIPELINES) as TGenerationMode[],
);

/** What the local engine loads once per process (or per pool thread) and reuses. */
export interface LocalEngineTools {
  faceAnalyzer: FaceAnalyzer;
  personSegmenter: PersonSegmenter;
}

/**
 * Runs one local-engine request on the calling thread: real image processing with sharp and
 * hand-written pixel operations, no network. Deterministic: the same request and seed give the
 * same bytes. The signal is checked between stages.
 */
export async function runLocalEngine(
  request: EngineRequest,
  context: EngineContext,
  { faceAnalyzer, personSegmenter }: LocalEngineTools,
  videoOptions: LocalVideoOptions,
): Promise<EngineOutput> {
  const pipeline = LOCAL_PIPELINES[request.mode];
  if (!pipeline) {
    throw EngineError.badInput(
      'mode_unsupported',
      `The local engine can't do ${String(request.mode).replace('_', ' ')} yet; choose another engine for it.`,
    );
  }
  const output = await pipeline.run(request, context, createProgress(context), {
    faceAnalyzer,
    personSegmenter,
    ...videoOptions,
  });
  return inAskedShape(request, output);
}

async function simple(request: EngineRequest, progress: Progress): Promise<EngineOutput> {
  const planned = planScene(request.prompt, request.seed);
  // Drawn in the asked frame shape, at the scene's own long side.
  const frame = request.aspect
    ? aspectSize(request.aspect, Math.max(planned.width, planned.height), 8)
    : null;
  const plan = frame ? { ...planned, ...frame, shape: shapeForFrame(frame.width, frame.height) } : planned;
  await progress.reach(10);
  const image = await renderScene(plan, progress.stages(10, 80, 4));
  await progress.reach(80);
  return finish(image, LOCAL_ENGINE_DESCRIPTIONS.simple, describeScene(plan), progress, { procedural: true });
}

async function editing(
  request: EngineRequest,
  progress: Progress,
  personSegmenter: PersonSegmenter,
): Promise<EngineOutput> {
  const source = singleImage(request, 'Editing');
  // Parse before decoding: an instruction we can't understand should fail fast and cheaply.
  const parsed = parseEditInstruction(request.prompt);
  if (parsed.operations.length === 0)
    throw EngineError.badInput('edit_not_understood', describeNothingUnderstood());
  const photo = await decode(source, MAX_UPSCALE_SIDE);
  await progress.reach(10);
  const result = await applyEdits(
    photo,
    parsed.operations,
    progress.stages(10, 80, parsed.operations.length),
    {
      seed: request.seed,
      segmentPerson: (image) => personSegmenter.segment(image),
    },
  );
  await progress.reach(80);
  const notes = [...result.notes];
  if (parsed.ignored.length > 0) {
    const parts = parsed.ignored.map((part) => `"${part}"`).join(', ');
    notes.push(engineNote('edit.ignored', `Not understood, left out: ${parts}.`, { parts }));
  }
  return finish(result.image, LOCAL_ENGINE_DESCRIPTIONS.editing, notes, progress);
}

async function styling(
  request: EngineRequest,
  progress: Progress,
  analyzer: FaceAnalyzer,
): Promise<EngineOutput> {
  const style = request.style;
  if (!style || !(STYLES as readonly string[]).includes(style)) {
    throw EngineError.badInput('style_missing', `Choose a style: ${STYLES.join(', ')}.`);
  }
  const source = singleImage(request, 'Styling');
  const photo = await decode(source, STYLING_MAX_SIDE);
  await progress.reach(10);
  // Faces are styled again at their own scale (cartoon, toy, oil), so they are found first.
  const faces = FACE_KEEPING_STYLES.has(style as TStyle) ? await facesIn(photo, analyzer) : [];
  const result = await applyStyle(photo, style as TStyle, request.seed, progress.stages(10, 80, 4), faces);
  await progress.reach(80);
  const notes = [
    engineNote(
      'styling.intro',
      `${STYLE_NAMES[style]} style by the offline local engine (classical image processing, not an AI model):`,
      { style },
    ),
    ...result.steps.map((step, index) =>
      engineNote(`styling.${style}.${index + 1}` as TGenerationNoteCode, step),
    ),
  ];
  if (result.facesKept) {
    notes.push(
      engineNote(
        'styling.faces_kept',
        `Faces found (${result.facesKept}) were styled again at their own scale, so eyes, nose and mouth stay legible.`,
        { count: result.facesKept },
      ),
    );
  }
  if (photo.width < source.width || photo.height < source.height) {
    const { width, height } = photo;
    notes.push(
      engineNote(
        'styling.worked_at',
        `Worked at ${width}×${height} (the styling limit is ${STYLING_MAX_SIDE} px on the long side).`,
        { width, height, limit: STYLING_MAX_SIDE },
      ),
    );
  }
  return finish(result.image, LOCAL_ENGINE_DESCRIPTIONS.styling, notes, progress);
}

/**
 * Face swap with a target photo, or a face photo for a prompt without one (see the pipelines).
 * Multiple faces in the target: the largest is swapped (said in the notes).
 */
async function faceSwap(
  request: EngineRequest,
  progress: Progress,
  analyzer: FaceAnalyzer,
  personSegmenter: PersonSegmenter,
): Promise<EngineOutput> {
  const faceModel = request.faceModel;
  if (!faceModel) {
    throw EngineError.badInput('needs_model', 'Face swap needs your trained digital model.');
  }
  await progress.reach(5);
  const checkpoint = progress.stages(5, 80, 4);
  if (request.images.length === 0) {
    if (!request.prompt.trim()) {
      throw EngineError.badInput(
        'needs_photo_or_scene',
        'Upload a photo to put your face on, or describe a scene.',
      );
    }
    const outcome = await facePhotoFromPrompt(
      request.prompt,
      request.seed,
      faceModel,
      checkpoint,
      personSegmenter,
    ).catch(asEngineError);
    await progress.reach(80);
    return finish(outcome.image, LOCAL_ENGINE_DESCRIPTIONS.face_photo, outcome.notes, progress);
  }
  const target = singleImage(request, 'Face swap');
  const outcome = await faceSwapOnPhoto(target, faceModel, analyzer, checkpoint).catch(asEngineError);
  await progress.reach(80);
  const image: RawImage = {
    data: Buffer.from(outcome.image.data.buffer, outcome.image.data.byteOffset, outcome.image.data.length),
    width: outcome.image.width,
    height: outcome.image.height,
    channels: 3,
  };
  return finish(image, LOCAL_ENGINE_DESCRIPTIONS.face_swap, outcome.notes, progress);
}

/** A pipeline's refusal of its input is the engine's bad input; anything else goes on as it is. */
function asEngineError(error: unknown): never {
  if (error instanceof UnusableInputError) throw EngineError.badInput(error.reason, error.message);
  throw error;
}

export interface LocalVideoOptions {
  /** The ffmpeg to encode with; the one @ffmpeg-installer/ffmpeg ships when not given. */
  ffmpegPath?: string;
  /** ffmpeg's own time limit; the job's signal stops it sooner when that runs out first. */
  encodeTimeoutMs?: number;
}

/**
 * Video from a photo: a camera move over it (animatePhoto), centred on the face when there is one,
 * with the face itself turning, tilting, blinking and smiling when it is large enough,
 * encoded to H.264 by ffmpeg with progress per encoded frame (10–95 %).
 */
async function animateLocally(
  request: EngineRequest,
  context: EngineContext,
  progress: Progress,
  options: LocalVideoOptions & { faceAnalyzer: FaceAnalyzer; personSegmenter: PersonSegmenter },
): Promise<EngineOutput> {
  if (request.images.length === 0 && request.prompt.trim().length === 0) {
    throw EngineError.badInput(
      'needs_photo_or_scene',
      'Add a photo to animate, or describe a scene to make a video of.',
    );
  }
  let ffmpegPath: string;
  try {
    ffmpegPath = options.ffmpegPath ?? bundledFfmpegPath();
    assertExecutable(ffmpegPath);
  } catch (error) {
    // A broken install, our fault: failed after the retries, and refunded.
    throw new EngineError('engine.failed', (error as Error).message, true);
  }
  if (request.images.length === 0) return sceneVideo(request, context, progress, { ...options, ffmpegPath });
  const source = singleImage(request, 'Animating');
  await progress.reach(2);
  let frameReports = Promise.resolve();
  let animated: AnimatedPhoto;
  try {
    animated = await animatePhoto({
      photo: source.data,
      aspect: request.aspect as TVideoAspect | null | undefined,
      durationSeconds: request.durationSeconds,
      faceAnalyzer: options.faceAnalyzer,
      personSegmenter: options.personSegmenter,
      camera: request.settings?.camera ?? null,
      ffmpegPath,
      description: LOCAL_ENGINE_DESCRIPTIONS.video,
      timeoutMs: options.encodeTimeoutMs ?? VIDEO_ENCODE_TIMEOUT_MS,
      signal: context.signal,
      // Reports are chained so they reach the database in order, never two at once.
      onProgress: (fraction) => {
        frameReports = frameReports.then(() => progress.reach(10 + fraction * 85)).catch(() => {});
      },
      check: progress.check,
    });
  } catch (error) {
    throw videoError(error, context.signal);
  }
  await frameReports;
  const { plan } = animated;
  const seconds = plan.windows.length / plan.fps;
  const notes = [
    engineNote(
      'video.camera_move',
      `A camera move over your photo by the offline local engine (zoom and pan, eased), not a generative video model: ${seconds} s at ${plan.fps} fps, ${plan.frame.width}×${plan.frame.height}.`,
      { seconds, fps: plan.fps, width: plan.frame.width, height: plan.frame.height },
    ),
  ];
  if (animated.camera) notes.push(cameraPresetNote(animated.camera));
  if (plan.faceCentred) {
    notes.push(engineNote('video.face_centred', 'The move closes in on the face it found.'));
  } else if (animated.motion === 'parallax') {
    notes.push(
      engineNote(
        'video.parallax',
        'The subject, cut out by an offline person-segmentation model, moves against its background (parallax), the uncovered background filled from around it.',
      ),
    );
  } else {
    notes.push(
      engineNote('video.no_face', 'No face found: the move closes in on the upper third of the photo.'),
    );
  }
  if (animated.motion === 'face') {
    notes.push(
      engineNote(
        'video.face_motion',
        'The face moves too, warped from the face mesh found in your photo: a gentle turn and tilt, blinks and a smile.',
      ),
    );
  }
  await progress.reach(100);
  return {
    data: animated.mp4,
    contentType: 'video/mp4',
    width: plan.frame.width,
    height: plan.frame.height,
    poster: animated.poster,
    durationSeconds: seconds,
    notes,
  };
}

/**
 * Video from a description: the simple mode's procedural scene for the prompt, drawn at the
 * video's frame size and animated (animateScene), encoded like an animated photo, with notes that
 * say it is the local engine's drawing and which of the prompt's words it used.
 */
async function sceneVideo(
  request: EngineRequest,
  context: EngineContext,
  progress: Progress,
  options: LocalVideoOptions & { ffmpegPath: string },
): Promise<EngineOutput> {
  const frame = videoFrameSize(request.aspect as TVideoAspect | null | undefined);
  const plan = {
    ...planScene(request.prompt, request.seed),
    width: frame.width,
    height: frame.height,
    shape: shapeForFrame(frame.width, frame.height),
  };
  const count = frameCount(request.durationSeconds);
  const seconds = count / VIDEO_FPS;
  await progress.reach(2);
  let encoded: { mp4: Buffer; poster: Buffer };
  let motions: SceneMotion[];
  try {
    const drawn = await animateScene(plan, seconds);
    motions = drawn.motions;
    // The camera move asked for films the scene, whose own motion carries on beneath it.
    const camera = request.settings?.camera;
    const animation = camera ? sceneWithCameraMove(drawn, camera) : drawn;
    progress.check();
    await progress.reach(10);
    let frameReports = Promise.resolve();
    encoded = await encodeFrames({
      frame,
      fps: VIDEO_FPS,
      count,
      renderFrame: async (index) => animation.frameAt(index / VIDEO_FPS, seconds),
      ffmpegPath: options.ffmpegPath,
      description: LOCAL_ENGINE_DESCRIPTIONS.video_scene,
      timeoutMs: options.encodeTimeoutMs ?? VIDEO_ENCODE_TIMEOUT_MS,
      signal: context.signal,
      onProgress: (fraction) => {
        frameReports = frameReports.then(() => progress.reach(10 + fraction * 85)).catch(() => {});
      },
      check: progress.check,
    });
    await frameReports;
  } catch (error) {
    throw videoError(error, context.signal);
  }
  const notes = [
    engineNote(
      'video.scene_animated',
      `An animated procedural scene by the offline local engine, not a generative video model: ${seconds} s at ${VIDEO_FPS} fps, ${frame.width}×${frame.height}.`,
      { seconds, fps: VIDEO_FPS, width: frame.width, height: frame.height },
    ),
    ...describeScene(plan),
    ...motions.map((motion) => engineNote(SCENE_MOTION_NOTES[motion].code, SCENE_MOTION_NOTES[motion].text)),
    ...(request.settings?.camera ? [cameraPresetNote(request.settings.camera)] : []),
  ];
  await progress.reach(100);
  return {
    data: encoded.mp4,
    contentType: 'video/mp4',
    width: frame.width,
    height: frame.height,
    poster: encoded.poster,
    durationSeconds: seconds,
    notes,
  };
}

/** Longest an encode may run by itself: 10 s of 720p takes well under a minute on one core. */
const VIDEO_ENCODE_TIMEOUT_MS = 5 * 60_000;

function videoError(error: unknown, signal: AbortSignal): EngineError {
  if (error instanceof EngineError) return error;
  if (signal.aborted) return cancelled(signal);
  if (error instanceof PhotoTooSmallError) return EngineError.badInput('photo_too_small', error.message);
  if (error instanceof FfmpegMissingError) return new EngineError('engine.failed', error.message, true);
  if (error instanceof FfmpegFailedError) {
    return error.timedOut
      ? new EngineError('engine.timeout', 'Encoding the video took too long.', true)
      : new EngineError('engine.failed', error.message, true);
  }
  if (error instanceof Error && /unsupported image format|Input buffer/i.test(error.message)) {
    return EngineError.badInput('unreadable_photo', 'The photo could not be read as an image.');
  }
  return new EngineError('engine.failed', String((error as Error)?.message ?? error), true);
}

async function finish(
  image: RawImage,
  description: string,
  notes: EngineNote[],
  progress: Progress,
  options: { procedural?: boolean } = {},
): Promise<EngineOutput> {
  progress.check();
  const data = await withLocalEngineLabel(encodePng(image), description).toBuffer();
  await progress.reach(100);
  return {
    data,
    contentType: 'image/png',
    width: image.width,
    height: image.height,
    notes,
    procedural: options.procedural ?? false,
  };
}

async function decode(image: EngineImage, maxSide: number): Promise<RawImage> {
  try {
    return await decodePhoto(image.data, maxSide);
  } catch {
    throw EngineError.badInput('unreadable_photo', 'The photo could not be read as an image.');
  }
}

// ---------------------------------------------------------------------------------------------------
// Progress and cancellation

interface Progress {
  /** Reports `percent` (once, only ever increasing) after checking for cancellation. */
  reach(percent: number): Promise<void>;
  /** Throws if the job was cancelled. */
  check(): void;
  /**
   * A checkpoint for a pipeline with about `count` stages: each call checks for cancellation and
   * moves progress a step from `from` towards `to` (never reaching it; the caller reports `to`).
   */
  stages(from: number, to: number, count: number): () => Promise<void>;
}

function createProgress(context: EngineContext): Progress {
  let reported = 0;
  const check = () => {
    if (context.signal.aborted) throw cancelled(context.signal);
  };
  const reach = async (percent: number) => {
    check();
    const value = Math.min(100, Math.round(percent));
    if (value <= reported) return;
    reported = value;
    await context.onProgress(value);
  };
  return {
    reach,
    check,
    stages(from, to, count) {
      let done = 0;
      const step = (to - from) / (Math.max(1, count) + 1);
      return async () => {
        done++;
        await reach(Math.min(to - 1, from + step * done));
      };
    },
  };
}

/**
 * What a cancelled job throws: the caller's own EngineError if it aborted with one, a timeout when
 * the signal timed out, otherwise "stopped" as retryable (a worker shutting down, not a bad request).
 */
export function cancelled(signal: AbortSignal): EngineError {
  const reason: unknown = signal.reason;
  if (reason instanceof EngineError) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new EngineError('engine.timeout', 'The local engine ran out of time.', true);
  }
  return new EngineError('engine.unavailable', 'The local engine was stopped before it finished.', true);
}
