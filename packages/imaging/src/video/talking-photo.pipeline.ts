import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { TLanguage, TVideoAspect } from '@mirra/contracts';
import { FACE_OVAL, type AnalysedFace, type FaceAnalyzer } from '../faces/index.js';
import { UnusableInputError } from '../pipeline.types.js';
import { MAX_INPUT_PIXELS } from '../raster/raster.js';
import {
  buildFaceRig,
  FACE_MOTION_MIN_WIDTH,
  facePoseAt,
  renderFaceMotion,
  type CanvasPoint,
  type FaceRig,
} from './face-motion.models.js';
import { runFfmpeg } from './ffmpeg.js';
import { posterAndFrames } from './video.pipeline.js';
import {
  encodeWav,
  SPEECH_RATE_MAX,
  SPEECH_RATE_NORMAL,
  SPEECH_SAMPLE_RATE,
  synthesiseSpeech,
} from './speech.js';
import {
  loudnessPerFrame,
  planMouth,
  renderMouth,
  visemesOf,
  type MouthShape,
} from './talking-photo.models.js';
import {
  coverRect,
  h264EncodeArgs,
  VIDEO_FPS,
  VIDEO_MIN_SOURCE_SIDE,
  videoFrameSize,
  type Size,
} from './video.models.js';
import { PhotoTooSmallError, type EncodeOptions } from './video.pipeline.js';

/** Silence before the first word: the person draws breath. */
const LEAD_IN_S = 0.2;
/** The head's turn and tilt while speaking: half the animated photo's, so the mouth leads. */
const HEAD_MOTION = 0.5;

export interface TalkingPhoto {
  mp4: Buffer;
  /** The first frame as WebP. */
  poster: Buffer;
  frame: Size;
  fps: number;
  seconds: number;
  /** How long the voice itself speaks, in seconds. */
  speechSeconds: number;
  /** The text was said faster than eSpeak's normal pace to fit the length. */
  spedUp: boolean;
}

/**
 * A portrait saying a text (eSpeak NG, in one of the app's languages) or playing a recording: the
 * photo cut to the frame's shape around the face, the head turning a little and blinking
 * (face-motion.models), the mouth opening with the voice's loudness and shaped by its phonemes
 * (talking-photo.models), muxed with the voice into an MP4 (H.264, AAC). The clip is exactly
 * `seconds` long: a text longer than that is said faster to fit, a recording is cut there.
 */
export async function talkingPhoto(
  input: {
    photo: Buffer;
    aspect: TVideoAspect | null | undefined;
    seconds: number;
    faceAnalyzer: FaceAnalyzer;
    /** The words and their language, or a recording (any format ffmpeg reads) instead. */
    text: string;
    language: TLanguage;
    voice?: Buffer | null;
  } & EncodeOptions,
): Promise<TalkingPhoto> {
  const upright = await sharp(input.photo, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const photo = { width: upright.info.width, height: upright.info.height };
  if (Math.min(photo.width, photo.height) < VIDEO_MIN_SOURCE_SIDE) {
    throw new PhotoTooSmallError(
      `The photo is ${photo.width}×${photo.height}; a talking photo needs at least ${VIDEO_MIN_SOURCE_SIDE} px on its short side.`,
    );
  }
  const rawPhoto = { raw: { ...photo, channels: 3 as const } };
  const analysis = await input.faceAnalyzer.analyze(
    await sharp(upright.data, rawPhoto).png({ compressionLevel: 1 }).toBuffer(),
  );
  const [face] = analysis.faces;
  if (!face || face.mesh.length < 468) {
    throw new UnusableInputError(
      'no_face',
      'No face was found in the photo: a talking photo needs a portrait.',
    );
  }
  input.check();
  const scale = photo.width / analysis.image.width;
  const frame = videoFrameSize(input.aspect);
  const focus = {
    x: ((face.box.x + face.box.width / 2) * scale) / photo.width,
    y: ((face.box.y + face.box.height / 2) * scale) / photo.height,
  };
  const crop = wholeRect(coverRect(photo, frame, focus), photo);
  const canvas = await sharp(upright.data, rawPhoto)
    .extract(crop)
    .resize(frame.width, frame.height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  const toFrame = (point: readonly number[] | undefined): CanvasPoint => [
    ((point?.[0] ?? 0) * scale - crop.left) * (frame.width / crop.width),
    ((point?.[1] ?? 0) * scale - crop.top) * (frame.height / crop.height),
  ];
  const rig = headRig(face, toFrame, frame);
  const mouth: MouthShape = {
    corners: [toFrame(face.landmarks.mouthRight), toFrame(face.landmarks.mouthLeft)],
    // The mesh's inner lip points (MediaPipe 13 upper, 14 lower).
    centre: midpoint(toFrame(face.mesh[13]), toFrame(face.mesh[14])),
    chin: toFrame(face.landmarks.chin),
  };

  const total = Math.round(input.seconds * SPEECH_SAMPLE_RATE);
  const lead = Math.round(LEAD_IN_S * SPEECH_SAMPLE_RATE);
  let spoken: Float32Array;
  let phonemes = '';
  let spedUp = false;
  if (input.voice) {
    spoken = await decodeVoice(input.voice, input);
  } else {
    let speech = await synthesiseSpeech(input.text, input.language);
    const room = total - lead - Math.round(0.1 * SPEECH_SAMPLE_RATE);
    if (speech.samples.length > room) {
      // Said faster by as much as it overruns (a little more, as pauses do not shrink).
      const rate = Math.min(SPEECH_RATE_MAX, (SPEECH_RATE_NORMAL * speech.samples.length * 1.08) / room);
      speech = await synthesiseSpeech(input.text, input.language, rate);
      spedUp = true;
    }
    spoken = speech.samples;
    phonemes = speech.phonemes;
  }
  input.check();
  const audio = new Float32Array(total);
  const kept = Math.min(spoken.length, total - lead);
  audio.set(spoken.subarray(0, kept), lead);
  // A cut recording fades out over its last 50 ms instead of clicking.
  const fade = Math.min(kept, Math.round(0.05 * SPEECH_SAMPLE_RATE));
  if (kept < spoken.length) {
    for (let index = 0; index < fade; index++) audio[lead + kept - fade + index]! *= 1 - index / fade;
  }

  const fps = VIDEO_FPS;
  const count = Math.round(input.seconds * fps);
  const mouthPoses = planMouth(loudnessPerFrame(audio, SPEECH_SAMPLE_RATE, fps, count), visemesOf(phonemes));
  const renderFrame = async (index: number): Promise<Buffer> => {
    const image = Buffer.from(canvas);
    let shape = mouth;
    if (rig) {
      const pose = facePoseAt(index / fps, input.seconds);
      const head = {
        yaw: pose.yaw * HEAD_MOTION,
        roll: pose.roll * HEAD_MOTION,
        pitch: pose.pitch * HEAD_MOTION,
        smile: 0,
        blink: pose.blink,
      };
      renderFaceMotion({
        canvas: { data: canvas, width: frame.width, height: frame.height },
        frame: image,
        frameSize: frame,
        window: { left: 0, top: 0, ...frame },
        rig,
        pose: head,
      });
      // The mouth goes where the head's turn and tilt carried it.
      const [dx, dy] = rigDisplacement(rig, head, mouth.centre);
      const moved = (p: CanvasPoint): CanvasPoint => [p[0] + dx, p[1] + dy];
      shape = {
        corners: [moved(mouth.corners[0]), moved(mouth.corners[1])],
        centre: moved(mouth.centre),
        chin: moved(mouth.chin),
      };
    }
    renderMouth({
      source: Buffer.from(image),
      frame: image,
      width: frame.width,
      height: frame.height,
      mouth: shape,
      pose: mouthPoses[index]!,
    });
    return image;
  };
  const encoded = await encodeWithVoice({ ...input, frame, fps, count, renderFrame, audio });
  return {
    ...encoded,
    frame,
    fps,
    seconds: count / fps,
    speechSeconds: Math.round((kept / SPEECH_SAMPLE_RATE) * 10) / 10,
    spedUp,
  };
}

/** The head's motion rig on the frame; none for a face too small in it to move. */
function headRig(
  face: AnalysedFace,
  toFrame: (point: readonly number[] | undefined) => CanvasPoint,
  frame: Size,
) {
  const { landmarks } = face;
  const oval = FACE_OVAL.map((index) => toFrame(face.mesh[index]));
  const xs = oval.map((p) => p[0]);
  if (Math.max(...xs) - Math.min(...xs) < FACE_MOTION_MIN_WIDTH) return null;
  return buildFaceRig(
    {
      oval,
      noseTip: toFrame(landmarks.noseTip),
      eyes: [
        {
          outer: toFrame(landmarks.rightEyeOuter),
          inner: toFrame(landmarks.rightEyeInner),
          upper: toFrame(landmarks.rightEyeUpper),
          lower: toFrame(landmarks.rightEyeLower),
        },
        {
          outer: toFrame(landmarks.leftEyeOuter),
          inner: toFrame(landmarks.leftEyeInner),
          upper: toFrame(landmarks.leftEyeUpper),
          lower: toFrame(landmarks.leftEyeLower),
        },
      ],
      mouthCorners: [toFrame(landmarks.mouthRight), toFrame(landmarks.mouthLeft)],
    },
    frame,
  );
}

/** How far the head's pose moves the point at `at` (the rig's fields there). */
function rigDisplacement(
  rig: FaceRig,
  pose: { yaw: number; pitch: number; roll: number },
  at: CanvasPoint,
): [number, number] {
  const column = Math.floor((at[0] - rig.region.x) / rig.step);
  const row = Math.floor((at[1] - rig.region.y) / rig.step);
  if (column < 0 || row < 0 || column >= rig.columns || row >= rig.rows) return [0, 0];
  const cell = row * rig.columns + column;
  return [
    pose.yaw * rig.yawX[cell]! + pose.roll * rig.rollX[cell]!,
    pose.pitch * rig.pitchY[cell]! + pose.roll * rig.rollY[cell]!,
  ];
}

/** A recording as mono samples at the speech's rate (ffmpeg reads WebM/Opus, Ogg, MP4/AAC, WAV). */
async function decodeVoice(voice: Buffer, options: EncodeOptions): Promise<Float32Array> {
  const workDir = await mkdtemp(path.join(tmpdir(), 'mirra-voice-'));
  try {
    const source = path.join(workDir, 'voice');
    const output = path.join(workDir, 'voice.f32');
    await writeFile(source, voice);
    await runFfmpeg({
      path: options.ffmpegPath,
      args: [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-i',
        source,
        '-vn',
        '-ac',
        '1',
        '-ar',
        String(SPEECH_SAMPLE_RATE),
        '-f',
        'f32le',
        output,
      ],
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    const bytes = await readFile(output);
    return new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4)).slice();
  } catch (error) {
    if (options.signal.aborted) throw error;
    throw new UnusableInputError('unreadable_photo', 'The recording could not be read as sound.');
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * Renders the frames (one ahead while ffmpeg encodes) into H.264 with the voice as AAC beside
 * them: the animated photo's encode with an audio input added.
 */
async function encodeWithVoice(
  input: {
    frame: Size;
    fps: number;
    count: number;
    renderFrame: (index: number) => Promise<Buffer>;
    audio: Float32Array;
  } & EncodeOptions,
): Promise<{ mp4: Buffer; poster: Buffer }> {
  const { frame, count } = input;
  const { poster, frames } = await posterAndFrames(input);
  const workDir = await mkdtemp(path.join(tmpdir(), 'mirra-talking-'));
  try {
    const output = path.join(workDir, 'video.mp4');
    const voice = path.join(workDir, 'voice.wav');
    await writeFile(voice, encodeWav(input.audio));
    await runFfmpeg({
      path: input.ffmpegPath,
      args: withVoice(
        h264EncodeArgs({ frame, fps: input.fps, output, description: input.description }),
        voice,
      ),
      input: frames(),
      timeoutMs: input.timeoutMs,
      signal: input.signal,
      onFrame: (encoded) => input.onProgress(Math.min(1, encoded / count)),
    });
    return { mp4: await readFile(output), poster };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The silent encode's arguments with the voice (a WAV) added as AAC at 44.1 kHz, which every player takes. */
export function withVoice(args: string[], voice: string): string[] {
  const input = args.indexOf('pipe:0');
  const silent = args.indexOf('-an');
  if (input < 0 || silent < 0) throw new Error('Unexpected encode arguments');
  const result = [...args];
  result.splice(silent, 1, '-map', '0:v', '-map', '1:a', '-c:a', 'aac', '-b:a', '96k', '-ar', '44100');
  result.splice(input + 1, 0, '-i', voice);
  return result;
}

function midpoint(a: CanvasPoint, b: CanvasPoint): CanvasPoint {
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}

function wholeRect(rect: { left: number; top: number; width: number; height: number }, bounds: Size) {
  const width = Math.max(1, Math.min(bounds.width, Math.round(rect.width)));
  const height = Math.max(1, Math.min(bounds.height, Math.round(rect.height)));
  return {
    left: Math.min(bounds.width - width, Math.max(0, Math.round(rect.left))),
    top: Math.min(bounds.height - height, Math.max(0, Math.round(rect.top))),
    width,
    height,
  };
}
