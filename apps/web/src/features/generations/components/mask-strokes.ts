/**
 * The mask painter's strokes, kept in the picture's natural pixels whatever size it is shown at,
 * so the exported mask and the preview are drawn from the same list and a resize loses nothing.
 */

export interface MaskPoint {
  x: number;
  y: number;
}

export interface MaskStroke {
  /** An eraser stroke takes paint away from the strokes before it. */
  erase: boolean;
  /** The brush's diameter, in the picture's natural pixels. */
  size: number;
  points: MaskPoint[];
}

/** Where a pointer is on the picture, in its natural pixels (kept on the picture at its edges). */
export function toNaturalPoint(
  client: { clientX: number; clientY: number },
  box: { left: number; top: number; width: number; height: number },
  natural: { width: number; height: number },
): MaskPoint {
  const x = ((client.clientX - box.left) * natural.width) / box.width;
  const y = ((client.clientY - box.top) * natural.height) / box.height;
  return { x: clamp(x, 0, natural.width), y: clamp(y, 0, natural.height) };
}

/** A brush chosen in screen pixels, as wide on the picture as it looks on the screen. */
export function naturalBrushSize(screenSize: number, shownWidth: number, naturalWidth: number): number {
  return (screenSize * naturalWidth) / shownWidth;
}

/** Whether any paint is left to send: eraser strokes alone leave nothing. */
export function hasPaint(strokes: readonly MaskStroke[]): boolean {
  return strokes.some((stroke) => !stroke.erase);
}

/** The drawing calls the painter makes: a canvas 2D context has them all. */
export type StrokeSurface = Pick<
  CanvasRenderingContext2D,
  | 'beginPath'
  | 'moveTo'
  | 'lineTo'
  | 'arc'
  | 'fill'
  | 'stroke'
  | 'fillRect'
  | 'clearRect'
  | 'setTransform'
  | 'fillStyle'
  | 'strokeStyle'
  | 'lineWidth'
  | 'lineCap'
  | 'lineJoin'
  | 'globalCompositeOperation'
>;

/**
 * How strokes are inked. The preview shows paint in one colour and cuts it away for the eraser
 * (the canvas sits over the picture, so a cut shows the picture again); the mask paints white and
 * erases with black, staying opaque, as inpainting engines read it.
 */
export type StrokeInk = { kind: 'preview'; paint: string } | { kind: 'mask' };

const MASK_PAINT = '#ffffff';
const MASK_EMPTY = '#000000';

/**
 * Draws a stroke's points from `from` on (a segment while the finger moves; 0 for the whole
 * stroke): round joins and caps make lines between successive points read as one smooth line, and
 * a single point as a dot.
 */
export function drawStroke(ctx: StrokeSurface, stroke: MaskStroke, ink: StrokeInk, from = 0): void {
  const colour = ink.kind === 'mask' ? (stroke.erase ? MASK_EMPTY : MASK_PAINT) : ink.paint;
  ctx.globalCompositeOperation = ink.kind === 'preview' && stroke.erase ? 'destination-out' : 'source-over';
  ctx.fillStyle = colour;
  ctx.strokeStyle = colour;
  const points = stroke.points;
  const start = Math.max(0, from - 1);
  const first = points[start];
  if (!first) return;
  if (points.length - start === 1) {
    ctx.beginPath();
    ctx.arc(first.x, first.y, stroke.size / 2, 0, Math.PI * 2);
    ctx.fill();
    return;
  }
  ctx.lineWidth = stroke.size;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  ctx.moveTo(first.x, first.y);
  for (const point of points.slice(start + 1)) ctx.lineTo(point.x, point.y);
  ctx.stroke();
}

/** The preview: every stroke over a clear canvas, at `scale` canvas pixels per natural pixel. */
export function drawPreview(
  ctx: StrokeSurface,
  strokes: readonly MaskStroke[],
  canvas: { width: number; height: number },
  scale: number,
  paint: string,
): void {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalCompositeOperation = 'source-over';
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  for (const stroke of strokes) drawStroke(ctx, stroke, { kind: 'preview', paint });
}

/**
 * The mask at the picture's natural size: opaque black, white where painted, later strokes over
 * earlier ones (an eraser stroke paints black back).
 */
export function strokesToMask(
  ctx: StrokeSurface,
  strokes: readonly MaskStroke[],
  natural: { width: number; height: number },
): void {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalCompositeOperation = 'source-over';
  ctx.fillStyle = MASK_EMPTY;
  ctx.fillRect(0, 0, natural.width, natural.height);
  for (const stroke of strokes) drawStroke(ctx, stroke, { kind: 'mask' });
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
