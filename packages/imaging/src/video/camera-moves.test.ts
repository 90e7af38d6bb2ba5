import { CAMERA_MOVES, type TCameraMove } from '@mirra/contracts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { animateScene, shapeForFrame } from '../scene/scene.animation.js';
import { planScene } from '../scene/scene.models.js';
import { cameraViewAt, planCameraMove, planLayeredMove, sceneWithCameraMove } from './camera-moves.models.js';
import { bundledFfmpegPath, sampleVideoFrames } from './ffmpeg.js';
import { animatePhoto } from './video.pipeline.js';

const SIDE = 64;

/** A picture as 64×64 grey levels, as the motion measures read it. */
async function grey(picture: Buffer, raw?: { width: number; height: number }): Promise<Float32Array> {
  const image = raw ? sharp(picture, { raw: { ...raw, channels: 3 } }) : sharp(picture);
  const data = await image.resize(SIDE, SIDE, { fit: 'fill' }).greyscale().raw().toBuffer();
  return Float32Array.from(data);
}

function meanAbsDifference(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/**
 * How the picture moved from `a` to `b`: the zoom and shift (in 64ths of the frame) that best map
 * b's pixels back onto a's, by exhaustive search — what a person sees as "closer", "to the left".
 */
function motionBetween(a: Float32Array, b: Float32Array): { zoom: number; dx: number; dy: number } {
  let best = { zoom: 1, dx: 0, dy: 0, error: Infinity };
  const centre = SIDE / 2;
  for (let zoom = 0.7; zoom <= 1.45; zoom += 0.05) {
    for (let dx = -16; dx <= 16; dx++) {
      for (let dy = -16; dy <= 16; dy++) {
        let error = 0;
        let used = 0;
        for (let y = 8; y < SIDE - 8; y += 2) {
          for (let x = 8; x < SIDE - 8; x += 2) {
            // A point of b sits, in a, `zoom` times closer to the centre, shifted by (dx, dy).
            const sx = Math.round(centre + (x - centre) / zoom - dx);
            const sy = Math.round(centre + (y - centre) / zoom - dy);
            if (sx < 0 || sy < 0 || sx >= SIDE || sy >= SIDE) continue;
            error += Math.abs(b[y * SIDE + x]! - a[sy * SIDE + sx]!);
            used++;
          }
        }
        if (used > 200 && error / used < best.error) best = { zoom, dx, dy, error: error / used };
      }
    }
  }
  return { zoom: best.zoom, dx: best.dx, dy: best.dy };
}

/** A square photo with detail everywhere (blocks of many greys), so any move shows. */
async function texturedPhoto(): Promise<Buffer> {
  const side = 360;
  const data = Buffer.alloc(side * side * 3);
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 255;
  const cell = 24;
  const shades = Array.from({ length: (side / cell) ** 2 }, () => [random(), random(), random()]);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const shade = shades[Math.floor(y / cell) * (side / cell) + Math.floor(x / cell)]!;
      for (let c = 0; c < 3; c++) data[(y * side + x) * 3 + c] = shade[c]!;
    }
  }
  return sharp(data, { raw: { width: side, height: side, channels: 3 } })
    .blur(3)
    .png()
    .toBuffer();
}

describe('the named camera moves', () => {
  it('every move changes the view smoothly: no jump between frames larger than a slow move makes', () => {
    for (const move of CAMERA_MOVES) {
      const plan = planCameraMove({
        move,
        photo: { width: 1000, height: 1000 },
        aspect: '1:1',
        durationSeconds: 5,
      });
      let largest = 0;
      for (let i = 1; i < plan.windows.length; i++) {
        const [a, b] = [plan.windows[i - 1]!, plan.windows[i]!];
        largest = Math.max(
          largest,
          Math.abs(a.left - b.left),
          Math.abs(a.top - b.top),
          Math.abs(a.width - b.width),
        );
      }
      // Canvas pixels per frame: under 1 % of the 1440-pixel canvas, however the move goes.
      expect(largest, move).toBeLessThan(14);
      expect(new Set(plan.windows.map((w) => `${w.left},${w.top},${w.width}`)).size, move).toBeGreaterThan(
        20,
      );
    }
  });

  it('each move goes its own way: in, out, left, right, up; the handheld sway wanders without a trend', () => {
    const focus = { x: 0.5, y: 0.5 };
    const at = (move: TCameraMove, t: number) => cameraViewAt(move, t, t * 5, focus);
    expect(at('zoom_in', 1).zoom).toBeGreaterThan(at('zoom_in', 0).zoom + 0.2);
    expect(at('zoom_out', 1).zoom).toBeLessThan(at('zoom_out', 0).zoom - 0.2);
    expect(at('pan_left', 1).x).toBeLessThan(at('pan_left', 0).x - 0.1);
    expect(at('pan_right', 1).x).toBeGreaterThan(at('pan_right', 0).x + 0.1);
    expect(at('crane_up', 1).y).toBeLessThan(at('crane_up', 0).y - 0.1);
    const sway = Array.from({ length: 50 }, (_, i) => at('handheld', i / 49).x);
    expect(Math.max(...sway) - Math.min(...sway)).toBeGreaterThan(0.01);
    expect(Math.abs(sway[49]! - sway[0]!)).toBeLessThan(0.04);
  });

  it('an orbit carries the person and the background opposite ways; a dolly magnifies the person faster', () => {
    const input = { photo: { width: 720, height: 1280 }, aspect: '9:16' as const, durationSeconds: 3 };
    const orbit = planLayeredMove({ ...input, move: 'orbit', subject: { x: 0.5, y: 0.5 } });
    const centre = (w: { left: number; width: number }) => w.left + w.width / 2;
    const front = centre(orbit.windows.at(-1)!) - centre(orbit.windows[0]!);
    const back = centre(orbit.backgroundWindows.at(-1)!) - centre(orbit.backgroundWindows[0]!);
    expect(Math.sign(front)).toBe(-Math.sign(back));
    const dolly = planLayeredMove({ ...input, move: 'dolly_in', subject: { x: 0.5, y: 0.4 } });
    expect(dolly.windows.at(-1)!.width).toBeLessThan(dolly.backgroundWindows.at(-1)!.width * 0.9);
  });

  it(
    'one photo animated three ways shows three different motions in its frames',
    { timeout: 60_000 },
    async () => {
      const photo = await texturedPhoto();
      const ffmpegPath = bundledFfmpegPath();
      const measured: Record<string, { zoom: number; dx: number; dy: number }> = {};
      for (const camera of ['zoom_in', 'pan_left', 'crane_up'] as const) {
        const animated = await animatePhoto({
          photo,
          aspect: '1:1',
          durationSeconds: 1,
          faceAnalyzer: null,
          personSegmenter: null,
          camera,
          ffmpegPath,
          description: 'test',
          timeoutMs: 60_000,
          signal: new AbortController().signal,
          onProgress: () => {},
          check: () => {},
        });
        expect(animated.camera).toBe(camera);
        const [first, last] = await sampleVideoFrames({
          path: ffmpegPath,
          mp4: animated.mp4,
          seconds: 1,
          count: 2,
          timeoutMs: 30_000,
        });
        measured[camera] = motionBetween(await grey(first!), await grey(last!));
      }
      // Zoom in: the picture grows about the middle and stays put sideways.
      expect(measured.zoom_in!.zoom).toBeGreaterThan(1.05);
      expect(Math.abs(measured.zoom_in!.dx)).toBeLessThanOrEqual(2);
      // Pan left: the camera turns left, so the picture slides right, without growing.
      expect(measured.pan_left!.dx).toBeGreaterThanOrEqual(3);
      expect(Math.abs(measured.pan_left!.zoom - 1)).toBeLessThan(0.06);
      // Crane up: the camera rises, so the picture slides down.
      expect(measured.crane_up!.dy).toBeGreaterThanOrEqual(3);
      expect(Math.abs(measured.crane_up!.dx)).toBeLessThanOrEqual(1);
    },
  );
});

describe('a video of a described scene', () => {
  async function beach(camera: TCameraMove | null) {
    const [width, height] = [180, 320];
    const plan = {
      ...planScene('waves rolling onto a beach at sunset', 7),
      width,
      height,
      shape: shapeForFrame(width, height),
    };
    const animation = await animateScene(plan, 3.2);
    const filmed = camera ? sceneWithCameraMove(animation, camera) : animation;
    const frames = [await grey(filmed.frameAt(0.8, 3.2), plan), await grey(filmed.frameAt(2.4, 3.2), plan)];
    return { animation, difference: meanAbsDifference(frames[0]!, frames[1]!) };
  }

  it('"waves rolling onto a beach at sunset": the waves roll, frames 1.6 s apart clearly differ', async () => {
    const still = await beach(null);
    expect(still.animation.motions).toContain('water');
    // Grey levels at 64×64 between frames 1.6 s apart: the water alone moves this much.
    expect(still.difference).toBeGreaterThan(2);
    // And a camera move on top moves it more.
    const filmed = await beach('zoom_in');
    expect(filmed.difference).toBeGreaterThan(still.difference);
  });
});
