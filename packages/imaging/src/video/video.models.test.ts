import { describe, expect, it } from 'vitest';
import {
  canvasSourceRect,
  easeInOut,
  faceFocus,
  frameCount,
  h264EncodeArgs,
  planMotion,
  VIDEO_SUPERSAMPLE,
  VIDEO_ZOOM_END,
  videoFrameSize,
} from './video.models.js';

const centre = (rect: { left: number; top: number; width: number; height: number }) => ({
  x: rect.left + rect.width / 2,
  y: rect.top + rect.height / 2,
});

describe('video frame sizes', () => {
  it('is 720p in each aspect, even on both sides, 9:16 by default', () => {
    expect(videoFrameSize('9:16')).toEqual({ width: 720, height: 1280 });
    expect(videoFrameSize('16:9')).toEqual({ width: 1280, height: 720 });
    expect(videoFrameSize('1:1')).toEqual({ width: 720, height: 720 });
    expect(videoFrameSize(null)).toEqual({ width: 720, height: 1280 });
  });

  it('has duration × fps frames', () => {
    expect(frameCount(3, 24)).toBe(72);
    expect(frameCount(10, 24)).toBe(240);
  });
});

describe('easing', () => {
  it('starts and ends still and passes the middle at half way', () => {
    expect(easeInOut(0)).toBe(0);
    expect(easeInOut(1)).toBe(1);
    expect(easeInOut(0.5)).toBeCloseTo(0.5);
    // Slow at the ends: the first tenth of the time covers far less than a tenth of the way.
    expect(easeInOut(0.1)).toBeLessThan(0.05);
    expect(1 - easeInOut(0.9)).toBeLessThan(0.05);
  });
});

describe('the camera move', () => {
  const photo = { width: 1200, height: 1600 };

  it('starts on the whole canvas and pushes in by the end zoom, one window per frame', () => {
    const plan = planMotion({ photo, aspect: '9:16', durationSeconds: 5, fps: 24 });
    expect(plan.windows).toHaveLength(120);
    expect(plan.canvas).toEqual({ width: 720 * VIDEO_SUPERSAMPLE, height: 1280 * VIDEO_SUPERSAMPLE });
    expect(plan.windows[0]).toEqual({
      left: 0,
      top: 0,
      width: plan.canvas.width,
      height: plan.canvas.height,
    });
    const last = plan.windows.at(-1)!;
    expect(last.width).toBe(Math.round(plan.canvas.width / VIDEO_ZOOM_END));
    // Every window keeps the frame's shape (to a pixel) and stays on the canvas.
    for (const window of plan.windows) {
      expect(Math.abs(window.width / window.height - 720 / 1280)).toBeLessThan(0.002);
      expect(window.left).toBeGreaterThanOrEqual(0);
      expect(window.top).toBeGreaterThanOrEqual(0);
      expect(window.left + window.width).toBeLessThanOrEqual(plan.canvas.width);
      expect(window.top + window.height).toBeLessThanOrEqual(plan.canvas.height);
    }
  });

  it('moves smoothly: never more than a few canvas pixels a frame, slowest at the ends', () => {
    const plan = planMotion({ photo, aspect: '16:9', durationSeconds: 3, face: { x: 0.7, y: 0.3 } });
    const steps = plan.windows.slice(1).map((window, index) => {
      const before = plan.windows[index]!;
      return Math.max(Math.abs(window.left - before.left), Math.abs(window.width - before.width));
    });
    // The eased move's fastest step is π/2 times the average step (cosine easing), plus rounding.
    const first = plan.windows[0]!;
    const last = plan.windows.at(-1)!;
    const travel = Math.max(Math.abs(last.left - first.left), Math.abs(last.width - first.width));
    expect(Math.max(...steps)).toBeLessThanOrEqual((travel / steps.length) * (Math.PI / 2) + 1);
    const middle = steps[Math.floor(steps.length / 2)]!;
    expect(steps[0]).toBeLessThan(middle);
    expect(steps.at(-1)).toBeLessThan(middle);
  });

  it('closes in on the face: the last window is centred towards it', () => {
    const face = { x: 0.75, y: 0.4 };
    const plan = planMotion({
      photo: { width: 1600, height: 1600 },
      aspect: '1:1',
      durationSeconds: 3,
      face,
    });
    expect(plan.faceCentred).toBe(true);
    const end = centre(plan.windows.at(-1)!);
    const start = centre(plan.windows[0]!);
    expect(end.x).toBeGreaterThan(start.x);
    // As far right as the zoom allows: the window touches the canvas's right edge.
    const last = plan.windows.at(-1)!;
    expect(last.left + last.width).toBe(plan.canvas.width);
  });

  it('without a face pushes in towards the upper third, centred across', () => {
    const plan = planMotion({ photo: { width: 1600, height: 1600 }, aspect: '1:1', durationSeconds: 3 });
    expect(plan.faceCentred).toBe(false);
    const end = centre(plan.windows.at(-1)!);
    expect(end.x).toBeCloseTo(plan.canvas.width / 2, 0);
    expect(end.y).toBeLessThan(plan.canvas.height / 2);
  });

  it('cuts the frame-shaped part of the photo around the face', () => {
    const wide = { width: 2000, height: 1000 };
    const plan = planMotion({ photo: wide, aspect: '9:16', durationSeconds: 3, face: { x: 0.8, y: 0.5 } });
    const source = canvasSourceRect(wide, plan);
    expect(source.height).toBe(1000);
    expect(source.width).toBe(563);
    // Centred on the face's x (0.8 × 2000 = 1600) as far as the photo allows.
    expect(source.left).toBe(Math.round(1600 - 562.5 / 2));
  });

  it('turns a face box into its centre as fractions of the photo', () => {
    expect(faceFocus({ x: 100, y: 200, width: 200, height: 200 }, { width: 1000, height: 1000 })).toEqual({
      x: 0.2,
      y: 0.3,
    });
  });
});

describe('the H.264 encoder arguments', () => {
  const args = h264EncodeArgs({
    frame: { width: 720, height: 1280 },
    fps: 24,
    output: 'out.mp4',
    description: 'Animated by test',
  });
  const after = (flag: string) => args[args.indexOf(flag) + 1];

  it('reads raw RGB frames of the frame size from stdin and writes a web MP4', () => {
    expect(after('-f')).toBe('rawvideo');
    expect(after('-s')).toBe('720x1280');
    expect(after('-r')).toBe('24');
    expect(after('-i')).toBe('pipe:0');
    expect(after('-c:v')).toBe('libx264');
    expect(args.filter((arg) => arg === '-pix_fmt')).toHaveLength(2);
    expect(args.at(args.lastIndexOf('-pix_fmt') + 1)).toBe('yuv420p');
    expect(after('-movflags')).toBe('+faststart');
    expect(after('-progress')).toBe('pipe:1');
    expect(after('-metadata')).toBe('comment=Animated by test');
    expect(args.at(-1)).toBe('out.mp4');
  });

  it('refuses odd dimensions (yuv420p cannot hold them)', () => {
    expect(() => h264EncodeArgs({ frame: { width: 721, height: 1280 }, fps: 24, output: 'x.mp4' })).toThrow(
      /even/,
    );
  });
});
