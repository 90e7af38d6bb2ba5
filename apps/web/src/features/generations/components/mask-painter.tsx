import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { IconTrash } from '../../../components/ui/icons';
import { Svg } from '../../../components/ui/icons/svg';
import {
  drawPreview,
  drawStroke,
  hasPaint,
  naturalBrushSize,
  strokesToMask,
  toNaturalPoint,
  type MaskStroke,
  type StrokeSurface,
} from './mask-strokes';
import './mask-painter.css';

/** Brush diameters in screen pixels: fine for an eye or an earring, broad for a sky. */
export const BRUSH_MIN = 6;
export const BRUSH_MAX = 72;
const BRUSH_DEFAULT = 28;
/** The preview canvas's longest side: sharp on a 3× phone screen, light on memory for big uploads. */
const PREVIEW_MAX_SIDE = 1600;
/** Jitter below this (natural pixels) adds points without changing the line. */
const MIN_STEP = 0.75;

export interface MaskPainterProps {
  /** The picture to paint over (an upload's URL) and its natural size. */
  src: string;
  width: number;
  height: number;
  /**
   * Called with the mask (a PNG Blob at the picture's natural size: white where painted, black
   * elsewhere, opaque) after each stroke ends, after undo and clear, or null when nothing is painted.
   */
  onChange(mask: Blob | null): void;
  error?: string | null;
}

/**
 * A brush over a picture for masked edits: paint what should change (mouse, finger or pen), with
 * a brush size, an eraser, undo and clear. The paint shows in the brand colour, translucent, over
 * the picture; the parent gets the mask as a PNG after every change.
 */
export function MaskPainter({ src, width, height, onChange, error }: MaskPainterProps) {
  const { t } = useTranslation();
  const sizeId = useId();
  const errorId = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [strokes, setStrokes] = useState<MaskStroke[]>([]);
  const strokesRef = useRef(strokes);
  const drawing = useRef<{ pointerId: number; stroke: MaskStroke } | null>(null);
  const [brush, setBrush] = useState(BRUSH_DEFAULT);
  const [erasing, setErasing] = useState(false);
  // The latest onChange, so a parent's new callback never re-creates the painting handlers.
  const onChangeRef = useRef(onChange);
  useLayoutEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  /** Only the latest change's mask reaches the parent, however the encodings finish. */
  const published = useRef(0);

  const scale = Math.min(1, PREVIEW_MAX_SIDE / Math.max(width, height, 1));
  const canvasWidth = Math.max(1, Math.round(width * scale));
  const canvasHeight = Math.max(1, Math.round(height * scale));

  const context = useCallback((): CanvasRenderingContext2D | null => {
    return canvasRef.current?.getContext('2d') ?? null;
  }, []);

  /** The paint colour is the theme's accent, read from the canvas's own `color` (set in CSS). */
  const paintColour = useCallback((): string => {
    const canvas = canvasRef.current;
    return (canvas && getComputedStyle(canvas).color) || 'currentColor';
  }, []);

  const redraw = useCallback(
    (list: readonly MaskStroke[]) => {
      const ctx = context();
      if (ctx) drawPreview(ctx, list, { width: canvasWidth, height: canvasHeight }, scale, paintColour());
    },
    [context, canvasWidth, canvasHeight, scale, paintColour],
  );

  // Committed strokes are drawn again after undo, clear, a new picture or a new canvas size
  // (setting a canvas's size wipes it).
  useLayoutEffect(() => {
    strokesRef.current = strokes;
    redraw(strokes);
  }, [strokes, redraw]);

  const publish = useCallback(
    (list: readonly MaskStroke[]) => {
      const ticket = ++published.current;
      const send = (mask: Blob | null) => {
        if (ticket === published.current) onChangeRef.current(mask);
      };
      if (!hasPaint(list) || !previewShowsPaint(canvasRef.current)) return send(null);
      void encodeMask(list, width, height).then(send, () => send(null));
    },
    [width, height],
  );

  const commit = useCallback(
    (list: MaskStroke[]) => {
      strokesRef.current = list;
      setStrokes(list);
      // The preview must hold the new list before it is asked whether any paint is visible.
      redraw(list);
      publish(list);
    },
    [publish, redraw],
  );

  // A new picture starts a new mask.
  const shownSrc = useRef(src);
  useEffect(() => {
    if (shownSrc.current === src) return;
    shownSrc.current = src;
    drawing.current = null;
    if (strokesRef.current.length > 0) commit([]);
  }, [src, commit]);

  const pointOf = (event: { clientX: number; clientY: number }) => {
    const canvas = canvasRef.current;
    if (!canvas) return null;
    const box = canvas.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) return null;
    return { point: toNaturalPoint(event, box, { width, height }), shownWidth: box.width };
  };

  const inkSegment = (stroke: MaskStroke, from: number) => {
    const ctx = context();
    if (!ctx) return;
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    drawStroke(ctx as StrokeSurface, stroke, { kind: 'preview', paint: paintColour() }, from);
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    // One finger paints; a second one (a pinch) or a right click does not start another stroke.
    if (drawing.current || !event.isPrimary || (event.pointerType === 'mouse' && event.button !== 0)) return;
    const at = pointOf(event);
    if (!at) return;
    event.preventDefault();
    // Keeps the stroke's moves coming when the finger slides off the picture.
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const stroke: MaskStroke = {
      erase: erasing,
      size: naturalBrushSize(brush, at.shownWidth, width),
      points: [at.point],
    };
    drawing.current = { pointerId: event.pointerId, stroke };
    inkSegment(stroke, 0);
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const current = drawing.current;
    if (!current || current.pointerId !== event.pointerId) return;
    // Fast moves arrive coalesced: every sampled position keeps curves round rather than angular.
    const samples = event.nativeEvent.getCoalescedEvents?.() ?? [];
    const from = current.stroke.points.length;
    for (const sample of samples.length > 0 ? samples : [event]) {
      const at = pointOf(sample);
      const last = current.stroke.points.at(-1);
      if (!at || !last) continue;
      if (Math.hypot(at.point.x - last.x, at.point.y - last.y) < MIN_STEP) continue;
      current.stroke.points.push(at.point);
    }
    if (current.stroke.points.length > from) inkSegment(current.stroke, from);
  };

  const onPointerEnd = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const current = drawing.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drawing.current = null;
    event.currentTarget.releasePointerCapture?.(event.pointerId);
    commit([...strokesRef.current, current.stroke]);
  };

  const onPointerCancel = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    // The system took the touch (a call, a gesture): the half stroke is dropped, not kept.
    if (drawing.current?.pointerId !== event.pointerId) return;
    drawing.current = null;
    redraw(strokesRef.current);
  };

  const empty = strokes.length === 0;

  return (
    <div className="mask-painter" data-testid="mask-painter">
      <div
        className="mask-painter__stage"
        style={{
          aspectRatio: `${width} / ${height}`,
          // A tall picture is narrowed so the tools below stay on the screen.
          maxWidth: `min(100%, calc(68svh * ${(width / Math.max(height, 1)).toFixed(4)}))`,
        }}
      >
        <img
          className="mask-painter__picture"
          src={src}
          width={width}
          height={height}
          alt=""
          draggable={false}
        />
        <canvas
          ref={canvasRef}
          className="mask-painter__canvas"
          width={canvasWidth}
          height={canvasHeight}
          role="img"
          aria-label={t('mask.canvas')}
          aria-describedby={error ? errorId : undefined}
          data-testid="mask-canvas"
          data-strokes={strokes.length}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerEnd}
          onPointerCancel={onPointerCancel}
          onContextMenu={(event) => event.preventDefault()}
        />
      </div>
      <div className="mask-painter__tools">
        <label className="mask-painter__size" htmlFor={sizeId}>
          <span className="mask-painter__dot" aria-hidden="true">
            <span style={{ width: brushDot(brush), height: brushDot(brush) }} />
          </span>
          <input
            id={sizeId}
            className="mask-painter__range"
            type="range"
            min={BRUSH_MIN}
            max={BRUSH_MAX}
            step={2}
            value={brush}
            onChange={(event) => setBrush(Number(event.target.value))}
            aria-label={t('mask.brushSize')}
            data-testid="mask-brush-size"
          />
        </label>
        <button
          type="button"
          className={`mask-painter__tool${erasing ? ' mask-painter__tool--on' : ''}`}
          aria-label={t('mask.erase')}
          title={t('mask.erase')}
          aria-pressed={erasing}
          onClick={() => setErasing((on) => !on)}
          data-testid="mask-erase"
        >
          <IconEraser />
        </button>
        <button
          type="button"
          className="mask-painter__tool"
          aria-label={t('mask.undo')}
          title={t('mask.undo')}
          disabled={empty}
          onClick={() => commit(strokesRef.current.slice(0, -1))}
          data-testid="mask-undo"
        >
          <IconUndo />
        </button>
        <button
          type="button"
          className="mask-painter__tool"
          aria-label={t('mask.clear')}
          title={t('mask.clear')}
          disabled={empty}
          onClick={() => commit([])}
          data-testid="mask-clear"
        >
          <IconTrash size={20} />
        </button>
      </div>
      <p className="mask-painter__hint">{erasing ? t('mask.eraseHint') : t('mask.hint')}</p>
      {error && (
        <p className="mask-painter__error" id={errorId} role="alert" data-testid="mask-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The size preview's dot: the brush's diameter, shrunk to fit its 28 px box. */
function brushDot(brush: number): number {
  return Math.round(6 + ((brush - BRUSH_MIN) / (BRUSH_MAX - BRUSH_MIN)) * 22);
}

/**
 * Whether the preview still shows paint (erasing every stroke leaves none, though the list has
 * paint strokes). Sampled every few pixels; a canvas that cannot be read counts as painted.
 */
function previewShowsPaint(canvas: HTMLCanvasElement | null): boolean {
  const ctx = canvas?.getContext('2d');
  if (!canvas || !ctx || typeof ctx.getImageData !== 'function') return true;
  try {
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    for (let alpha = 3; alpha < data.length; alpha += 16) if (data[alpha]! > 0) return true;
    return false;
  } catch {
    return true;
  }
}

/** The mask as a PNG at the picture's natural size, drawn on a canvas of its own. */
function encodeMask(strokes: readonly MaskStroke[], width: number, height: number): Promise<Blob | null> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.resolve(null);
  strokesToMask(ctx, strokes, { width, height });
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
}

function IconEraser() {
  return (
    <Svg size={20}>
      <path d="m7 21-4.3-4.3a1 1 0 0 1 0-1.4l10-10a1 1 0 0 1 1.4 0l5.6 5.6a1 1 0 0 1 0 1.4L11 21" />
      <path d="M7 21h14" />
      <path d="m5.5 12.5 6 6" />
    </Svg>
  );
}

function IconUndo() {
  return (
    <Svg size={20}>
      <path d="M9 14 4 9l5-5" />
      <path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11" />
    </Svg>
  );
}
