import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { bundledFfmpegPath } from '@mirra/imaging';
import { loadTestFaces, tiltedPrint, turnedHead } from '@mirra/imaging/testing';
import type { TestUser } from './accounts.js';
import { e2eEnv } from './env.js';

const run = promisify(execFile);

/**
 * What the fake camera films: the model's own face (the astronaut), someone else (Grace Hopper),
 * or a print of the own face held up and tilted each way instead of a head turning.
 */
export type CameraFace = 'own' | 'other' | 'print';

export interface LiveCheckFrames {
  straight: Buffer;
  left: Buffer;
  right: Buffer;
}

const cache = new Map<CameraFace, Promise<LiveCheckFrames>>();

/**
 * The three frames of a live check of a test portrait: as it is, and with the head turned each
 * way by the face rig (a 2D warp by depth, about 8° as the analyser reads it; see
 * @mirra/imaging/testing live-check-frames.ts for what that does and does not prove).
 */
export function liveCheckFrames(face: CameraFace): Promise<LiveCheckFrames> {
  let frames = cache.get(face);
  if (!frames) {
    frames = loadTestFaces().then(async (faces) => {
      if (face === 'print') {
        return {
          straight: faces.astronaut,
          left: await tiltedPrint(faces.astronaut, 0.5),
          right: await tiltedPrint(faces.astronaut, -0.5),
        };
      }
      const portrait = face === 'own' ? faces.astronaut : faces.graceHopper;
      return {
        straight: portrait,
        left: await turnedHead(portrait, 0.4),
        right: await turnedHead(portrait, -0.4),
      };
    });
    cache.set(face, frames);
  }
  return frames;
}

export interface FakeCamera {
  /** Chromium switches that make getUserMedia play the file (and grant the camera without asking). */
  args: string[];
  remove(): Promise<void>;
}

/**
 * A Y4M file for Chromium's fake camera, made with the bundled ffmpeg: the face looking straight
 * for 2.4 s, turned one way for 1.6 s, then the other way. The check's screen takes its shots
 * 1.6 s apart from when the camera opens (1.6, 3.2, 4.8 s), each in the middle of its pose.
 */
export async function writeFakeCamera(face: CameraFace): Promise<FakeCamera> {
  const frames = await liveCheckFrames(face);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mirra-e2e-camera-'));
  const inputs: string[] = [];
  for (const [name, seconds] of [
    ['straight', 2.4],
    ['left', 1.6],
    ['right', 4],
  ] as const) {
    const file = path.join(dir, `${name}.png`);
    // The camera's 4:3 picture with the portrait in the middle, on grey.
    await writeFile(
      file,
      await sharp(frames[name])
        .resize({ width: 640, height: 480, fit: 'contain', background: '#7f7f7f' })
        .png()
        .toBuffer(),
    );
    inputs.push('-loop', '1', '-t', String(seconds), '-i', file);
  }
  const video = path.join(dir, 'camera.y4m');
  await run(bundledFfmpegPath(), [
    '-v',
    'error',
    ...inputs,
    '-filter_complex',
    '[0:v][1:v][2:v]concat=n=3:v=1:a=0,fps=10,format=yuv420p[v]',
    '-map',
    '[v]',
    '-f',
    'yuv4mpegpipe',
    video,
  ]);
  return {
    args: [
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Takes a model's live check through the API with the owner's own turned frames (for specs about training). */
export async function apiPassLiveCheck(user: TestUser, modelUuid: string): Promise<void> {
  const frames = await liveCheckFrames('own');
  const form = new FormData();
  for (const name of ['straight', 'left', 'right'] as const) {
    form.append(name, new Blob([new Uint8Array(frames[name])], { type: 'image/jpeg' }), `${name}.jpg`);
  }
  const response = await fetch(new URL(`/api/models/${modelUuid}/live-check/`, e2eEnv.baseUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${user.access}` },
    body: form,
  });
  const body = (await response.json()) as { passed?: boolean };
  if (response.status !== 200 || !body.passed) {
    throw new Error(`live check: ${response.status} ${JSON.stringify(body)}`);
  }
}
