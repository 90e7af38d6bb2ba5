import { describe, expect, it } from 'vitest';
import {
  laplacianVariance,
  meanLuminance,
  normalisedSharpness,
  noseBridgeLineContrast,
  toLuminance,
} from './face-pixels.models.js';
import type { FaceLandmarks, Point3 } from './faces.types.js';

const SIZE = 64;

function image(valueAt: (x: number, y: number) => number): Uint8Array {
  const pixels = new Uint8Array(SIZE * SIZE);
  for (let y = 0; y < SIZE; y += 1) {
    for (let x = 0; x < SIZE; x += 1) pixels[y * SIZE + x] = Math.round(valueAt(x, y));
  }
  return pixels;
}

describe('pixel measures of a face crop', () => {
  it('computes Rec. 601 luminance from RGB and RGBA', () => {
    expect([...toLuminance(new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255]), 3)]).toEqual([76, 150, 29]);
    expect([...toLuminance(new Uint8Array([200, 200, 200, 0]), 4)]).toEqual([200]);
    expect(meanLuminance(new Uint8Array([10, 20, 30]))).toBe(20);
  });

  it('finds no sharpness in a flat or gently graded image and a lot in fine detail', () => {
    expect(
      laplacianVariance(
        image(() => 128),
        SIZE,
        SIZE,
      ),
    ).toBe(0);
    expect(
      laplacianVariance(
        image((x) => 64 + x),
        SIZE,
        SIZE,
      ),
    ).toBe(0);
    const checker = image((x, y) => ((x + y) % 2 === 0 ? 200 : 50));
    expect(laplacianVariance(checker, SIZE, SIZE)).toBeGreaterThan(100_000);
  });

  it('gives the same sharpness to a darker copy of the same detail', () => {
    const detail = (scale: number) => image((x, y) => scale * (120 + 60 * Math.sin(x) * Math.cos(y / 2)));
    const bright = normalisedSharpness(detail(1), SIZE, SIZE);
    const dark = normalisedSharpness(detail(0.3), SIZE, SIZE);
    expect(dark / bright).toBeGreaterThan(0.9);
    expect(dark / bright).toBeLessThan(1.1);
  });
});

describe('glasses: a line across the nose bridge', () => {
  // A face box covering the whole crop; eyes at y = 30, brows at y = 20.
  const box = { x: 0, y: 0, width: SIZE, height: SIZE };
  const p = (x: number, y: number): Point3 => [x, y, 0];
  function landmarks(rotate: (x: number, y: number) => [number, number]): FaceLandmarks {
    const at = (x: number, y: number) => p(...rotate(x, y));
    return {
      rightEyeOuter: at(12, 30),
      rightEyeInner: at(24, 30),
      leftEyeInner: at(40, 30),
      leftEyeOuter: at(52, 30),
      rightEyeUpper: at(18, 28),
      rightEyeLower: at(18, 32),
      leftEyeUpper: at(46, 28),
      leftEyeLower: at(46, 32),
      rightBrowInner: at(24, 18),
      leftBrowInner: at(40, 18),
      noseBridge: at(32, 28),
      noseTip: at(32, 42),
      mouthRight: at(24, 50),
      mouthLeft: at(40, 50),
      chin: at(32, 62),
      rightCheek: at(4, 40),
      leftCheek: at(60, 40),
    };
  }
  const upright = (x: number, y: number): [number, number] => [x, y];
  // Skin: a soft shading from top to bottom, as light falls on a forehead.
  const skin = (_x: number, y: number) => 150 - y * 0.5;

  it('is low on bare skin and high where a frame crosses the bridge', () => {
    const bare = noseBridgeLineContrast(image(skin), SIZE, box, landmarks(upright));
    const frame = image((x, y) => (y >= 24 && y <= 25 ? 40 : skin(x, y)));
    const withFrame = noseBridgeLineContrast(frame, SIZE, box, landmarks(upright));
    expect(bare).toBeLessThan(2);
    expect(withFrame).toBeGreaterThan(30);
  });

  it('follows a tilted head: a frame along the tilted eye line still reads as one line', () => {
    const angle = (15 * Math.PI) / 180;
    const rotate = (x: number, y: number): [number, number] => [
      32 + (x - 32) * Math.cos(angle) - (y - 32) * Math.sin(angle),
      32 + (x - 32) * Math.sin(angle) + (y - 32) * Math.cos(angle),
    ];
    // The frame line y ∈ [24, 25] of the upright face, drawn rotated.
    const frame = image((x, y) => {
      const uprightY = 32 - (x - 32) * Math.sin(angle) + (y - 32) * Math.cos(angle);
      return uprightY >= 23.5 && uprightY <= 25.5 ? 40 : 140;
    });
    expect(noseBridgeLineContrast(frame, SIZE, box, landmarks(rotate))).toBeGreaterThan(30);
  });

  it('measures nothing when the landmarks make no sense', () => {
    const collapsed = landmarks(() => [32, 32]);
    expect(noseBridgeLineContrast(image(skin), SIZE, box, collapsed)).toBe(0);
  });
});
