import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { bundledFfmpegPath, runFfmpeg } from '@mirra/imaging';
import { createLocalEngine } from '../engines/local/local.engine.js';

/**
 * Real media for the providers' fakes, made by the local imaging code: so an e2e run against the
 * fakes shows pictures and plays videos, not placeholders.
 */

const localEngine = createLocalEngine();

/** The local engine's scene for a prompt, as a PNG. */
export async function drawScene(prompt: string, seed: number) {
  const started = await localEngine.start(
    {
      generationUuid: 'fake',
      mode: 'simple',
      prompt,
      guidance: 7,
      seed,
      style: null,
      durationSeconds: null,
      images: [],
    },
    { onProgress: () => undefined, signal: new AbortController().signal },
  );
  if (started.kind !== 'done') throw new Error('the local engine did not draw');
  const data = await sharp(started.output.data).png().toBuffer();
  return { data, width: started.output.width, height: started.output.height };
}

/** An "edit": the photo with its colours turned. */
export async function recolour(photo: Buffer) {
  const { data, info } = await sharp(photo)
    .modulate({ saturation: 1.4, hue: 30 })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A "face swap": the face photo set into the upper middle of the target (a real picture, not a real swap). */
export async function insetFace(target: Buffer, face: Buffer) {
  const base = sharp(target);
  const { width = 512, height = 512 } = await base.metadata();
  const side = Math.max(16, Math.round(Math.min(width, height) / 3));
  const inset = await sharp(face).resize(side, side, { fit: 'cover' }).png().toBuffer();
  const data = await base
    .composite([{ input: inset, top: Math.round(height / 6), left: Math.round((width - side) / 2) }])
    .png()
    .toBuffer();
  return { data, width, height };
}

export async function blackImage() {
  const data = await sharp({ create: { width: 1024, height: 768, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  return { data, width: 1024, height: 768 };
}

/** A real H.264 MP4 (yuv420p, faststart) of a still with a slow zoom: 320 px wide, 8 fps. */
export async function encodeStillVideo(image: Buffer, seconds: number): Promise<Buffer> {
  const workDir = await mkdtemp(join(tmpdir(), 'fal-fake-video-'));
  try {
    const input = join(workDir, 'still.png');
    const output = join(workDir, 'video.mp4');
    await writeFile(
      input,
      await sharp(image).resize({ width: 640, height: 640, fit: 'inside' }).png().toBuffer(),
    );
    const fps = 8;
    await runFfmpeg({
      path: bundledFfmpegPath(),
      args: [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-loop',
        '1',
        '-i',
        input,
        '-vf',
        `zoompan=z='min(zoom+0.004,1.2)':d=${seconds * fps}:s=320x240:fps=${fps},format=yuv420p`,
        '-t',
        String(seconds),
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-movflags',
        '+faststart',
        output,
      ],
      timeoutMs: 60_000,
    });
    return await readFile(output);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
