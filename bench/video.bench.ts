/**
 * Seconds of compute per second of 720p video made by the local engine's Animate (decode, face
 * analysis, the camera move's frames from sharp, H.264 encoding by the bundled ffmpeg), for each
 * frame shape, on a real portrait (fetched like the tests do, see
 * packages/imaging/src/testing/test-faces.ts), and the process's peak memory. Report only.
 * Run: `node --import tsx bench/video.bench.ts` (BENCH_VIDEO_SECONDS long, 5 by default).
 */
import { readFileSync } from 'node:fs';
import { resourceUsage } from 'node:process';
import { VIDEO_ASPECTS } from '@mirra/contracts';
import { createFaceAnalyzer, bundledFfmpegPath, animatePhoto } from '@mirra/imaging';
import { loadTestFaces } from '@mirra/imaging/testing';

const SECONDS = Number(process.env.BENCH_VIDEO_SECONDS ?? 5);

const faces = await loadTestFaces();
const analyzer = createFaceAnalyzer();
await analyzer.warmUp();
const ffmpegPath = bundledFfmpegPath();

console.log(`Animate, ${SECONDS} s of video per run (the face model already loaded):`);
for (const aspect of VIDEO_ASPECTS) {
  // ffmpeg runs in its own process: its CPU time is the children's, counted with ours.
  const before = cpuSeconds();
  const wallStart = performance.now();
  const { mp4, plan } = await animatePhoto({
    photo: faces.graceHopper,
    aspect,
    durationSeconds: SECONDS,
    faceAnalyzer: analyzer,
    ffmpegPath,
    description: 'bench',
    timeoutMs: 10 * 60_000,
    signal: new AbortController().signal,
    onProgress: () => {},
    check: () => {},
  });
  const wall = (performance.now() - wallStart) / 1000;
  const cpu = cpuSeconds() - before;
  const { width, height } = plan.frame;
  console.log(
    `  ${aspect.padEnd(5)} ${width}×${height}, ${plan.windows.length} frames: ` +
      `${(cpu / SECONDS).toFixed(2)} s of CPU and ${(wall / SECONDS).toFixed(2)} s of wall time per second of video, ` +
      `${(mp4.length / 1024).toFixed(0)} KiB`,
  );
}
console.log(`Peak memory (this process): ${(resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);

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
