import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogues, createTestI18n } from '../../../test/i18n';
import { MaskPainter } from './mask-painter';

// jsdom has no canvas: each canvas gets a context that records its drawing calls, and toBlob
// hands back those calls (with the canvas's size) as the "PNG", so a test can read what the mask
// was drawn from.
type Call = { op: string; args: unknown[]; lineWidth: number; fillStyle: unknown };
const drawn = new WeakMap<HTMLCanvasElement, Call[]>();

function fakeContext(canvas: HTMLCanvasElement) {
  const calls: Call[] = [];
  drawn.set(canvas, calls);
  const state: Record<string, unknown> = { lineWidth: 1, fillStyle: '', strokeStyle: '' };
  return new Proxy(state, {
    get(target, key: string) {
      if (key in target) return target[key];
      if (key === 'getImageData') return undefined;
      return (...args: unknown[]) =>
        calls.push({ op: key, args, lineWidth: Number(target.lineWidth), fillStyle: target.fillStyle });
    },
    set(target, key: string, value) {
      target[key] = value;
      return true;
    },
  });
}

const W = 1000;
const H = 1500;
/** The picture as it is shown: 200 × 300 screen pixels at (20, 40). */
const BOX = { left: 20, top: 40, width: 200, height: 300, right: 220, bottom: 340, x: 20, y: 40 };

let i18n: I18n;
beforeEach(async () => {
  i18n = await createTestI18n('en');
  const contexts = new WeakMap<HTMLCanvasElement, unknown>();
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
    if (!contexts.has(this)) contexts.set(this, fakeContext(this));
    return contexts.get(this) as never;
  });
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (
    this: HTMLCanvasElement,
    callback: BlobCallback,
    type?: string,
  ) {
    const body = JSON.stringify({ width: this.width, height: this.height, calls: drawn.get(this) ?? [] });
    callback(new Blob([body], { type }));
  });
  vi.spyOn(HTMLCanvasElement.prototype, 'getBoundingClientRect').mockReturnValue({
    ...BOX,
    toJSON: () => BOX,
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function show(onChange: (mask: Blob | null) => void) {
  render(
    <I18nextProvider i18n={i18n}>
      <MaskPainter src="/m/1/original.jpg" width={W} height={H} onChange={onChange} />
    </I18nextProvider>,
  );
  return screen.getByTestId('mask-canvas');
}

/** A mouse stroke through screen points. */
function stroke(canvas: HTMLElement, points: Array<[number, number]>) {
  const [first, ...rest] = points;
  const base = { pointerId: 7, isPrimary: true, pointerType: 'mouse', button: 0 };
  fireEvent.pointerDown(canvas, { ...base, clientX: first![0], clientY: first![1] });
  for (const [clientX, clientY] of rest) fireEvent.pointerMove(canvas, { ...base, clientX, clientY });
  fireEvent.pointerUp(canvas, { ...base, clientX: rest.at(-1)![0], clientY: rest.at(-1)![1] });
}

async function readMask(mask: Blob) {
  return JSON.parse(await mask.text()) as { width: number; height: number; calls: Call[] };
}

describe('the mask painter', () => {
  it('hands over a PNG mask at the picture’s natural size, drawn from the stroke, when a stroke ends', async () => {
    const onChange = vi.fn();
    const canvas = show(onChange);
    stroke(canvas, [
      [40, 60],
      [70, 90],
      [120, 90],
    ]);
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    const mask = onChange.mock.calls[0]![0] as Blob;
    expect(mask).toBeInstanceOf(Blob);
    expect(mask.type).toBe('image/png');

    const { width, height, calls } = await readMask(mask);
    expect([width, height]).toEqual([W, H]);
    const scale = W / BOX.width;
    // The screen points, moved into the picture's natural pixels.
    const line = calls.filter((c) => c.op === 'moveTo' || c.op === 'lineTo').map((c) => c.args);
    expect(line).toEqual(
      [
        [40, 60],
        [70, 90],
        [120, 90],
      ].map(([x, y]) => [(x! - BOX.left) * scale, (y! - BOX.top) * scale]),
    );
    // The brush slider is in screen pixels; the mask's line is as wide on the picture.
    const brush = Number((screen.getByTestId('mask-brush-size') as HTMLInputElement).value);
    expect(calls.find((c) => c.op === 'stroke')?.lineWidth).toBe(brush * scale);
  });

  it('hands over nothing after the only stroke is undone, and undo and clear wait for a stroke', async () => {
    const onChange = vi.fn();
    const canvas = show(onChange);
    const undo = screen.getByTestId('mask-undo') as HTMLButtonElement;
    expect(undo.disabled).toBe(true);
    expect((screen.getByTestId('mask-clear') as HTMLButtonElement).disabled).toBe(true);

    stroke(canvas, [
      [50, 50],
      [90, 120],
    ]);
    await vi.waitFor(() => expect(onChange).toHaveBeenLastCalledWith(expect.any(Blob)));
    expect(undo.disabled).toBe(false);
    fireEvent.click(undo);
    await vi.waitFor(() => expect(onChange).toHaveBeenLastCalledWith(null));
    expect(undo.disabled).toBe(true);
  });

  it('clears every stroke at once and paints with the eraser once it is on', async () => {
    const onChange = vi.fn();
    const canvas = show(onChange);
    stroke(canvas, [
      [50, 50],
      [60, 70],
    ]);
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    const erase = screen.getByTestId('mask-erase');
    expect(erase.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(erase);
    expect(erase.getAttribute('aria-pressed')).toBe('true');
    stroke(canvas, [
      [55, 55],
      [58, 65],
    ]);
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(2));
    const { calls } = await readMask(onChange.mock.calls[1]![0] as Blob);
    // Background, the paint in white, then the eraser's line in black.
    expect(calls.filter((c) => c.op === 'stroke')).toHaveLength(2);
    expect(canvas.getAttribute('data-strokes')).toBe('2');

    fireEvent.click(screen.getByTestId('mask-clear'));
    await vi.waitFor(() => expect(onChange).toHaveBeenLastCalledWith(null));
    expect(canvas.getAttribute('data-strokes')).toBe('0');
  });

  it('labels the picture and every tool in the person’s language, and shows an error as an alert', async () => {
    i18n = await createTestI18n('ru');
    render(
      <I18nextProvider i18n={i18n}>
        <MaskPainter src="/a.jpg" width={W} height={H} onChange={() => undefined} error="Маска пуста" />
      </I18nextProvider>,
    );
    const texts = catalogues.ru.mask;
    expect(screen.getByTestId('mask-canvas').getAttribute('aria-label')).toBe(texts.canvas);
    expect(screen.getByTestId('mask-brush-size').getAttribute('aria-label')).toBe(texts.brushSize);
    expect(screen.getByTestId('mask-erase').getAttribute('aria-label')).toBe(texts.erase);
    expect(screen.getByTestId('mask-undo').getAttribute('aria-label')).toBe(texts.undo);
    expect(screen.getByTestId('mask-clear').getAttribute('aria-label')).toBe(texts.clear);
    expect(screen.getByText(texts.hint)).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Маска пуста');
  });
});
