/**
 * The entry module of the imaging pool's threads (see imaging-threads.ts): each named export is a
 * task. Whatever a task loads (tfjs models, the face analyser) stays loaded in its thread for the
 * next task. Built as its own file beside the server's entries (scripts/build.mjs).
 */
import { createFaceAnalyzer, type FaceAnalysis } from '@mirra/imaging';
import { classifyNsfw, type NsfwScores } from '../modules/moderation/index.js';

export { renderLocally } from '../engines/index.js';

// This thread's face analyser: its models load on the first photo and stay.
const faceAnalyzer = createFaceAnalyzer();

/** Every face in the photo (FaceAnalyzer.analyze on this thread). */
export function analyzeFaces(image: Uint8Array): Promise<FaceAnalysis> {
  return faceAnalyzer.analyze(asBuffer(image));
}

/** A live-check camera frame: the analysis with the antispoof and liveness scores. */
export function analyzeLiveFrame(image: Uint8Array): Promise<FaceAnalysis> {
  return faceAnalyzer.analyze(asBuffer(image), { spoofScores: true });
}

export function warmUpFaces(): Promise<void> {
  return faceAnalyzer.warmUp();
}

/** The NSFW classifier's scores for an image. */
export function classifyImage(image: Uint8Array): Promise<NsfwScores> {
  return classifyNsfw(asBuffer(image));
}

/** Buffers arrive as plain Uint8Arrays: made Buffers again over the same memory. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
