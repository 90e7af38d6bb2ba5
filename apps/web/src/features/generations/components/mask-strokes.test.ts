import { describe, expect, it } from 'vitest';
import {
  drawPreview,
  hasPaint,
  naturalBrushSize,
  strokesToMask,
  toNaturalPoint,
  type MaskStroke,
  type StrokeSurface,
} from './mask-strokes';

/** A 2D context that records what is drawn, with the fill/stroke colour and composite in force. */
function recorder() {
  const calls: Array<{ op: string; args: number[]; colour: string; composite: string; width: number }> = [];
  const ctx = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    lineCap: 'butt',
    lineJoin: 'miter',
    globalCompositeOperation: 'source-over',
  } as Record<string, unknown>;
  for (const op of [
    'beginPath',
    'moveTo',
    'lineTo',
    'arc',
    'fill',
    'stroke',
    'fillRect',
    'clearRect',
    'setTransform',
  ]) {
    ctx[op] = (...args: number[]) => {
      const colour = String(op === 'stroke' ? ctx.strokeStyle : ctx.fillStyle);
      calls.push({
        op,
        args,
        colour,
        composite: String(ctx.globalCompositeOperation),
        width: Number(ctx.lineWidth),
      });
    };
  }
  return { ctx: ctx as unknown as StrokeSurface, calls };
}

describe('mask strokes', () => {
  it('maps a pointer on the shown picture to the picture’s natural pixels, kept inside it', () => {
    const box = { left: 10, top: 100, width: 250, height: 500 };
    const natural = { width: 1000, height: 2000 };
    expect(toNaturalPoint({ clientX: 60, clientY: 150 }, box, natural)).toEqual({ x: 200, y: 200 });
    expect(toNaturalPoint({ clientX: 0, clientY: 900 }, box, natural)).toEqual({ x: 0, y: 2000 });
    expect(naturalBrushSize(20, 250, 1000)).toBe(80);
  });

  it('has paint only while a painting stroke is in the list', () => {
    const dot = (erase: boolean): MaskStroke => ({ erase, size: 4, points: [{ x: 1, y: 1 }] });
    expect(hasPaint([])).toBe(false);
    expect(hasPaint([dot(true)])).toBe(false);
    expect(hasPaint([dot(true), dot(false)])).toBe(true);
  });

  it('makes the mask opaque black at natural size, paint white, the eraser black again, in order', () => {
    const { ctx, calls } = recorder();
    const paint: MaskStroke = {
      erase: false,
      size: 40,
      points: [
        { x: 10, y: 20 },
        { x: 30, y: 40 },
        { x: 50, y: 45 },
      ],
    };
    const erase: MaskStroke = { erase: true, size: 12, points: [{ x: 30, y: 40 }] };
    strokesToMask(ctx, [paint, erase], { width: 640, height: 960 });

    const background = calls.find((c) => c.op === 'fillRect');
    expect(background).toMatchObject({ args: [0, 0, 640, 960], colour: '#000000' });
    // The painted stroke: lines through every point at the brush's natural width, in white.
    expect(calls.filter((c) => c.op === 'moveTo' || c.op === 'lineTo').map((c) => c.args)).toEqual(
      paint.points.map((p) => [p.x, p.y]),
    );
    expect(calls.find((c) => c.op === 'stroke')).toMatchObject({ colour: '#ffffff', width: 40 });
    // The eraser's single point: a dot of its radius, painted black over the white, never cut out
    // (a mask stays opaque).
    const dot = calls.find((c) => c.op === 'arc');
    expect(dot?.args.slice(0, 3)).toEqual([30, 40, 6]);
    const dotFill = calls.at(-1);
    expect(dotFill).toMatchObject({ op: 'fill', colour: '#000000', composite: 'source-over' });
    expect(calls.indexOf(dotFill!)).toBeGreaterThan(calls.findIndex((c) => c.op === 'stroke'));
  });

  it('shows the eraser on the preview by cutting the paint away, scaled to the preview canvas', () => {
    const { ctx, calls } = recorder();
    const erase: MaskStroke = {
      erase: true,
      size: 10,
      points: [
        { x: 0, y: 0 },
        { x: 5, y: 5 },
      ],
    };
    drawPreview(ctx, [erase], { width: 300, height: 200 }, 0.5, 'pink');
    expect(calls.find((c) => c.op === 'clearRect')?.args).toEqual([0, 0, 300, 200]);
    expect(calls.filter((c) => c.op === 'setTransform').at(-1)?.args).toEqual([0.5, 0, 0, 0.5, 0, 0]);
    expect(calls.find((c) => c.op === 'stroke')).toMatchObject({ composite: 'destination-out' });
  });
});
