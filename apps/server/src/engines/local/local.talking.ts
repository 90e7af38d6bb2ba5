import { LANGUAGES, type TLanguage, type TVideoAspect } from '@mirra/contracts';
import {
  assertExecutable,
  bundledFfmpegPath,
  FfmpegFailedError,
  FfmpegMissingError,
  type FaceAnalyzer,
  PhotoTooSmallError,
  talkingPhoto,
  UnusableInputError,
} from '@mirra/imaging';
import {
  EngineError,
  engineNote,
  type EngineContext,
  type EngineOutput,
  type EngineRequest,
} from '../engine.types.js';
import { singleImage } from './local.pictures.js';

/** What the talking photo is written into the MP4's metadata as. */
const TALKING_DESCRIPTION =
  'Made by Mirra local engine: eSpeak NG speech and a face-mesh mouth warp, not a generative video model, offline';
/** Longest an encode may take by itself: 15 s of 720p on one busy core is well under it. */
const TALKING_TIMEOUT_MS = 5 * 60_000;

/**
 * The local talking photo: the portrait says the text (eSpeak NG in its language) or plays the
 * recorded voice, the mouth moved with the speech, as long as the generation was charged for.
 */
export async function talkingLocally(
  request: EngineRequest,
  context: EngineContext,
  progress: { reach(percent: number): Promise<void>; check(): void },
  options: { faceAnalyzer: FaceAnalyzer; ffmpegPath?: string; encodeTimeoutMs?: number },
): Promise<EngineOutput> {
  const voice = request.settings?.voice ?? null;
  if (!voice && !request.prompt.trim()) {
    throw EngineError.badInput('needs_photo_or_scene', 'Type what the person says, or record your voice.');
  }
  let ffmpegPath: string;
  try {
    ffmpegPath = options.ffmpegPath ?? bundledFfmpegPath();
    assertExecutable(ffmpegPath);
  } catch (error) {
    throw new EngineError('engine.failed', (error as Error).message, true);
  }
  const source = singleImage(request, 'A talking photo');
  const language = request.settings?.language ?? guessLanguage(request.prompt);
  const seconds = request.durationSeconds ?? 5;
  await progress.reach(2);
  let frameReports = Promise.resolve();
  let made;
  try {
    made = await talkingPhoto({
      photo: source.data,
      aspect: request.aspect as TVideoAspect | null | undefined,
      seconds,
      faceAnalyzer: options.faceAnalyzer,
      text: request.prompt,
      language,
      voice: voice?.data ?? null,
      ffmpegPath,
      description: TALKING_DESCRIPTION,
      timeoutMs: options.encodeTimeoutMs ?? TALKING_TIMEOUT_MS,
      signal: context.signal,
      onProgress: (fraction) => {
        frameReports = frameReports.then(() => progress.reach(10 + fraction * 85)).catch(() => {});
      },
      check: progress.check,
    });
  } catch (error) {
    throw talkingError(error, context.signal);
  }
  await frameReports;
  const notes = [
    voice
      ? engineNote(
          'video.talking_voice',
          `Your recorded voice (${made.speechSeconds} s) with the mouth moved to its loudness over the face mesh, by the offline local engine, not a generative video model.`,
          { seconds: made.speechSeconds },
        )
      : engineNote(
          'video.talking',
          `Said by the eSpeak NG synthetic voice (${language}), the mouth opened by its loudness and shaped by its sounds over the face mesh, by the offline local engine, not a generative video model.`,
          { language },
        ),
  ];
  if (made.spedUp) {
    notes.push(engineNote('video.talking_faster', 'The text was said a little faster to fit the length.'));
  }
  await progress.reach(100);
  return {
    data: made.mp4,
    contentType: 'video/mp4',
    width: made.frame.width,
    height: made.frame.height,
    poster: made.poster,
    durationSeconds: made.seconds,
    notes,
  };
}

/** A text sent without its language: Cyrillic is said in Russian, anything else in English. */
function guessLanguage(text: string): TLanguage {
  return /[\u0400-\u04ff]/.test(text) ? 'ru' : (LANGUAGES[0] as TLanguage);
}

function talkingError(error: unknown, signal: AbortSignal): EngineError {
  if (error instanceof EngineError) return error;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof EngineError) return reason;
    return new EngineError('engine.timeout', 'The local engine ran out of time.', true);
  }
  if (error instanceof UnusableInputError) return EngineError.badInput(error.reason, error.message);
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
