/**
 * Seconds of compute per second of 720p video made by the local engine (decode, face analysis,
 * the frames, H.264 encoding by the bundled ffmpeg), and the process's peak memory, for each way a
 * video is made: Animate on a real portrait with the face moving (turn, tilt, blinks, smile) in
 * each frame shape, the camera move alone on the same portrait (the baseline, measured in the
 * same run, that the others are given as a ratio of), the parallax move on a person whose face is
 * hidden (selfie segmentation), and a video from a description (the animated procedural scene).
 * The portrait is fetched like the tests do (packages/imaging/src/testing/test-faces.ts).
 * Report only. Run: `node --import tsx bench/video.bench.ts` (BENCH_VIDEO_SECONDS long, 5 by default).
 */
import { readFileSync } from 'node:fs';
import { resourceUsage } from 'node:process';
import sharp from 'sharp';
import { VIDEO_ASPECTS, type TVideoAspect } from '@mirra/contracts';
import {
  animatePhoto,
  animateScene,
  bundledFfmpegPath,
  createFaceAnalyzer,
  createPersonSegmenter,
  encodeFrames,
  frameCount,
  planScene,
  shapeForFrame,
  VIDEO_FPS,
  videoFrameSize,
  type FaceAnalyzer,
  type PersonSegmenter,
} from '@mirra/imaging';
import { loadTestFaces } from '@mirra/imaging/testing';

const SECONDS = Number(process.env.BENCH_VIDEO_SECONDS ?? 5);

const faces = await loadTestFaces();
const analyzer = createFaceAnalyzer();
await analyzer.warmUp();
const segmenter = createPersonSegmenter();
const ffmpegPath = bundledFfmpegPath();
const encoding = {
  ffmpegPath,
  description: 'bench',
  timeoutMs: 10 * 60_000,
  signal: new AbortController().signal,
  onProgress: () => {},
  check: () => {},
};
// The astronaut with her face covered: a person with no face to find (the parallax path).
const hiddenFace = await sharp(faces.astronaut)
  .composite([
    {
      input: { create: { width: 110, height: 140, channels: 3, background: '#8a7060' } },
      left: 190,
      top: 40,
    },
  ])
  .png()
  .toBuffer();

/** CPU and wall seconds per second of video of one run, with what it made. */
async function measure(run: () => Promise<{ bytes: number; motion: string }>) {
  const before = cpuSeconds();
  const wallStart = performance.now();
  const { bytes, motion } = await run();
  return {
    cpu: (cpuSeconds() - before) / SECONDS,
    wall: (performance.now() - wallStart) / 1000 / SECONDS,
    bytes,
    motion,
  };
}

function animate(
  photo: Buffer,
  aspect: TVideoAspect,
  analyser: FaceAnalyzer | null,
  people: PersonSegmenter | null,
) {
  return async () => {
    const animated = await animatePhoto({
      photo,
      aspect,
      durationSeconds: SECONDS,
      faceAnalyzer: analyser,
      personSegmenter: people,
      ...encoding,
    });
    return { bytes: animated.mp4.length, motion: animated.motion };
  };
}

function scene(prompt: string, aspect: TVideoAspect) {
  return async () => {
    const frame = videoFrameSize(aspect);
    const plan = { ...planScene(prompt, 7), ...frame, shape: shapeForFrame(frame.width, frame.height) };
    const animation = await animateScene(plan, SECONDS);
    const encoded = await encodeFrames({
      frame,
      fps: VIDEO_FPS,
      count: frameCount(SECONDS),
      renderFrame: async (index) => animation.frameAt(index / VIDEO_FPS, SECONDS),
      ...encoding,
    });
    return { bytes: encoded.mp4.length, motion: animation.motions.join('+') };
  };
}

const rows: Array<[string, Awaited<ReturnType<typeof measure>>]> = [];
const peaks: string[] = [];
const peak = () => `${(resourceUsage().maxRSS / 1024).toFixed(0)} MiB`;
console.log(`${SECONDS} s of 720p video per run (the face model already loaded):`);
// The baseline: the camera move alone (no face analysis, no segmentation), as Animate was.
const baseline = await measure(animate(faces.graceHopper, '9:16', null, null));
rows.push(['camera move only, 9:16 (baseline)', baseline]);
peaks.push(`after the camera move: ${peak()}`);
for (const aspect of VIDEO_ASPECTS) {
  rows.push([
    `face motion, ${aspect}`,
    await measure(animate(faces.graceHopper, aspect, analyzer, segmenter)),
  ]);
}
peaks.push(`after face motion: ${peak()}`);
rows.push([
  'parallax (person, no face), 9:16',
  await measure(animate(hiddenFace, '9:16', analyzer, segmenter)),
]);
peaks.push(`after parallax: ${peak()}`);
rows.push([
  'scene: sunset over the sea, 9:16',
  await measure(scene('sunset over the sea with clouds', '9:16')),
]);
rows.push([
  'scene: snowy mountains at night, 16:9',
  await measure(scene('snowy mountains at night under the stars', '16:9')),
]);
peaks.push(`after scenes: ${peak()}`);
for (const [name, row] of rows) {
  console.log(
    `  ${name.padEnd(38)} ${row.cpu.toFixed(2)} s CPU (${(row.cpu / baseline.cpu).toFixed(2)}× baseline), ` +
      `${row.wall.toFixed(2)} s wall per second of video, ${(row.bytes / 1024).toFixed(0)} KiB, motion: ${row.motion}`,
  );
}
console.log(`Peak memory (this process, cumulative): ${peaks.join('; ')}`);

/** CPU seconds of this process and of the children it waited for (ffmpeg). */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  const children = childrenCpuSeconds();
  return (own.user + own.system) / 1e6 + children;
}

function childrenCpuSeconds(): number {
  // /proc/self/stat fields 16 and 17: cutime and cstime of waited-for children, in clock ticks.
  try {
    const stat = readStat();
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

function readStat(): string {
  return readFileSync('/proc/self/stat', 'utf8');
}
