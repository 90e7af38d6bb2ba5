import type { TStyle } from '@mirra/contracts';
import { hexToRgb } from '../raster/colour.js';
import { createRng, fractalNoise } from '../raster/random.js';
import {
  blurImage,
  blurPlane,
  boxBlurFloat,
  type Checkpoint,
  clampedBuffer,
  inkLines,
  kuwahara,
  luminance,
  medianImage,
  minFilter,
  mixByMask,
  multiplyPlane,
  type Plane,
  quantise,
  rawFrom,
  sobel,
  type RawImage,
  toSharp,
  vignette,
} from '../raster/raster.js';
import { FACE_KEEPING_STYLES, keepFaces, type StyleFace } from './styling.faces.js';

/** Styling works on at most this many pixels on the long side: detail enough, and fast on 2 cores. */
export const STYLING_MAX_SIDE = 1536;

export interface StyleResult {
  image: RawImage;
  /** What the pipeline did, in plain words, for the user. */
  steps: string[];
  /** Faces styled again at their own scale so their features stay legible (0 or absent: none). */
  facesKept?: number;
}

export const STYLE_NAMES: Record<TStyle, string> = {
  cartoon: 'Cartoon',
  toy: 'Toy figure',
  oil: 'Oil painting',
  watercolor: 'Watercolour',
  pencil: 'Pencil sketch',
  pop_art: 'Pop art',
};

/**
 * Classical image-processing looks (faces given: those of the cartoon, toy and oil styles are
 * styled again at the face's own scale, see keepFaces); no npm package ships style-transfer weights (research/offline-ml),
 * so each style is a hand-built pipeline. Every random texture is seeded from the generation's seed.
 * `checkpoint` runs between stages so a cancelled job stops early.
 */
export async function applyStyle(
  photo: RawImage,
  style: TStyle,
  seed: number,
  checkpoint: Checkpoint = async () => {},
  faces: StyleFace[] = [],
): Promise<StyleResult> {
  const result = await styleWhole(photo, style, seed, checkpoint);
  if (!FACE_KEEPING_STYLES.has(style) || faces.length === 0) return result;
  const image = await keepFaces(photo, result.image, style, faces, checkpoint);
  return { ...result, image, facesKept: Math.min(6, faces.length) };
}

async function styleWhole(
  photo: RawImage,
  style: TStyle,
  seed: number,
  checkpoint: Checkpoint,
): Promise<StyleResult> {
  switch (style) {
    case 'cartoon':
      return cartoon(photo, checkpoint);
    case 'toy':
      return toy(photo, checkpoint);
    case 'oil':
      return oil(photo, seed, checkpoint);
    case 'watercolor':
      return watercolor(photo, seed, checkpoint);
    case 'pencil':
      return pencil(photo, seed, checkpoint);
    case 'pop_art':
      return popArt(photo, seed, checkpoint);
  }
}

/** Filter sizes are tuned at 1024 px on the long side. */
const scaleOf = (image: RawImage) => Math.max(image.width, image.height) / 1024;
const px = (image: RawImage, size: number) => Math.max(1, Math.round(size * scaleOf(image)));

// ---------------------------------------------------------------------------------------------------
// Cartoon: flat colour areas and bold ink outlines.

async function cartoon(photo: RawImage, checkpoint: Checkpoint): Promise<StyleResult> {
  const denoised = await medianImage(photo, 5);
  await checkpoint();
  // Smoothing at half size reaches twice as far for a quarter of the work; the upscale back is
  // soft, and quantising afterwards turns the soft transitions into clean, rounded colour borders.
  const half = await rawFrom(
    toSharp(denoised).resize(Math.round(photo.width / 2), Math.round(photo.height / 2), { fit: 'fill' }),
  );
  const smoothHalf = kuwahara(kuwahara(await medianImage(half, 5), px(half, 4)), px(half, 3));
  await checkpoint();
  const smooth = await rawFrom(
    toSharp(smoothHalf)
      .resize(photo.width, photo.height, { fit: 'fill', kernel: 'cubic' })
      .modulate({ saturation: 1.35, brightness: 1.05 }),
  );
  const flat = await medianImage(await quantise(smooth, 18), 5);
  await checkpoint();
  // Lines come from the smoothed picture: its contours are the shapes, not skin pores or fabric.
  const lines = await inkLines(luminance(smooth), {
    sigma: 1.3 * scaleOf(photo),
    tau: 0.99,
    epsilon: -0.012,
    phi: 60,
  });
  // A touch of blur anti-aliases the thresholded lines, like a brush rather than pixels.
  const bold = await blurPlane(
    minFilter(hardenInk(lines, 150), Math.max(1, Math.round(scaleOf(photo)))),
    0.7,
  );
  return {
    image: multiplyPlane(flat, bold, 0.9),
    steps: [
      'edge-preserving smoothing (median, then two Kuwahara passes)',
      'colours boosted and reduced to an 18-colour flat palette',
      'bold outlines from a difference-of-Gaussians edge detector, multiplied on top',
    ],
  };
}

/** Ink above `threshold` becomes paper, the rest full ink: clean cel lines, no grey haze. */
function hardenInk(plane: Plane, threshold: number): Plane {
  const out = new Uint8Array(plane.data.length);
  for (let i = 0; i < out.length; i++) out[i] = plane.data[i]! >= threshold ? 255 : 0;
  return { ...plane, data: out };
}

// ---------------------------------------------------------------------------------------------------
// Toy figure: moulded glossy plastic, miniature-photo depth of field.

async function toy(photo: RawImage, checkpoint: Checkpoint): Promise<StyleResult> {
  // Smooth, evenly coloured surfaces with soft borders: factory-painted moulded plastic.
  const smooth = kuwahara(kuwahara(await medianImage(photo, 5), px(photo, 5)), px(photo, 3));
  await checkpoint();
  const moulded = await blurImage(smooth, 1.5 * scaleOf(photo));
  const punchy = await rawFrom(
    toSharp(moulded).modulate({ saturation: 1.3, brightness: 1.06 }).linear(1.15, -16),
  );
  await checkpoint();
  const shaded = glossShading(punchy, 9 * scaleOf(photo));
  await checkpoint();
  const tiltShift = await tiltShiftBlur(shaded, 5 * scaleOf(photo));
  return {
    image: vignette(tiltShift, 0.35),
    steps: [
      'strong edge-preserving smoothing (median, two Kuwahara passes) for moulded surfaces',
      'saturation and contrast boosted',
      'plastic gloss: rounded shading and specular highlights from the smoothed shapes',
      'tilt-shift blur at top and bottom, soft vignette',
    ],
  };
}

/**
 * Treats the heavily smoothed luminance as a height field and lights it: a broad diffuse term
 * rounds the shapes, a tight Blinn-Phong specular term puts the white glints that read as glossy
 * plastic. The height field stays in floats: 8-bit steps would light up as contour-line terraces.
 */
function glossShading(image: RawImage, sigma: number): RawImage {
  const { width, height } = image;
  const gray = Float32Array.from(luminance(image).data);
  // Broad forms for the rounded shading, finer ones for where the glints sit.
  const forms = boxBlurFloat(gray, width, height, sigma * 2);
  const details = boxBlurFloat(gray, width, height, sigma);
  const [out, outBuffer] = clampedBuffer(image.data.length);
  // Light from the upper left, towards the viewer; H is the Blinn-Phong half vector.
  const lx = -0.45;
  const ly = -0.55;
  const lz = 0.7;
  const hLen = Math.hypot(lx, ly, lz + 1);
  const hx = lx / hLen;
  const hy = ly / hLen;
  const hz = (lz + 1) / hLen;
  const relief = 0.045 * sigma;
  const normalAt = (field: Float32Array, x: number, y: number, scale: number): [number, number, number] => {
    const i = y * width + x;
    const nx = -(field[x < width - 1 ? i + 1 : i]! - field[x > 0 ? i - 1 : i]!) * scale;
    const ny = -(field[y < height - 1 ? i + width : i]! - field[y > 0 ? i - width : i]!) * scale;
    const length = Math.hypot(nx, ny, 1);
    return [nx / length, ny / length, 1 / length];
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [fx, fy, fz] = normalAt(forms, x, y, relief * 2);
      const [dx, dy, dz] = normalAt(details, x, y, relief);
      const diffuse = fx * lx + fy * ly + fz * lz;
      const specular = Math.pow(Math.max(0, dx * hx + dy * hy + dz * hz), 70);
      const shade = 0.62 + 0.48 * diffuse;
      const glint = Math.min(1, 0.95 * specular);
      const p = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const base = image.data[p + c]! * shade;
        out[p + c] = base + (255 - base) * glint;
      }
    }
  }
  return { ...image, data: outBuffer };
}

/** Miniature-model look: sharp band across the middle, increasing blur towards top and bottom. */
async function tiltShiftBlur(image: RawImage, sigma: number): Promise<RawImage> {
  const blurred = await blurImage(image, sigma);
  const mask = new Uint8Array(image.width * image.height);
  for (let y = 0; y < image.height; y++) {
    // The sharp band sits a little above the middle, where a portrait's face usually is.
    const d = Math.abs(y / image.height - 0.45);
    const t = Math.min(1, Math.max(0, (d - 0.3) / 0.2));
    mask.fill(Math.round(255 * t * t * (3 - 2 * t)), y * image.width, (y + 1) * image.width);
  }
  return mixByMask(image, blurred, { data: mask, width: image.width, height: image.height });
}

// ---------------------------------------------------------------------------------------------------
// Oil: painterly colour patches, brush strokes that follow the forms, impasto relief, canvas.

async function oil(photo: RawImage, seed: number, checkpoint: Checkpoint): Promise<StyleResult> {
  const painted = kuwahara(kuwahara(photo, px(photo, 6)), px(photo, 3));
  await checkpoint();
  const rich = await rawFrom(toSharp(painted).modulate({ saturation: 1.3 }).linear(1.08, -8));
  await checkpoint();
  const strokes = brushStrokeField(rich, seed, 9 * scaleOf(photo));
  await checkpoint();
  const relief = impasto(rich, strokes, 0.7);
  return {
    image: canvasWeave(relief, 4 * scaleOf(photo)),
    steps: [
      'Kuwahara filter (two passes) for painted colour patches',
      'saturation raised for rich pigment',
      'brush strokes: noise smeared along the image’s own contours (line integral convolution)',
      'impasto relief lighting and a faint canvas weave',
    ],
  };
}

/**
 * Brush-stroke height field: white noise averaged along each pixel's edge direction (from the
 * smoothed structure tensor), so streaks run along contours like strokes do. Values 0–1.
 */
function brushStrokeField(image: RawImage, seed: number, length: number): Float32Array {
  const { width, height } = image;
  const n = width * height;
  const gray = luminance(image).data;
  const jxx = new Float32Array(n);
  const jxy = new Float32Array(n);
  const jyy = new Float32Array(n);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const gx = gray[i + 1]! - gray[i - 1]!;
      const gy = gray[i + width]! - gray[i - width]!;
      jxx[i] = gx * gx;
      jxy[i] = gx * gy;
      jyy[i] = gy * gy;
    }
  }
  const radius = Math.max(2, length / 2);
  const sxx = boxBlurFloat(jxx, width, height, radius);
  const sxy = boxBlurFloat(jxy, width, height, radius);
  const syy = boxBlurFloat(jyy, width, height, radius);
  const rng = createRng(seed ^ 0x0111);
  // Coarser-than-pixel noise gives strokes a bristle width of ~2 px rather than 1 px static.
  const noise = fractalNoise(rng, width, height, { cell: 2, octaves: 2, persistence: 0.6 });
  const out = new Float32Array(n);
  const steps = Math.max(3, Math.round(length));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      // Gradient direction of the tensor; strokes go perpendicular to it, along the edge. Flat
      // regions (no structure) get a diagonal default, like a painter's habitual stroke.
      const a = sxx[i]! - syy[i]!;
      const b = 2 * sxy[i]!;
      const strength = Math.hypot(a, b);
      const theta = strength > 1 ? 0.5 * Math.atan2(b, a) + Math.PI / 2 : Math.PI / 4;
      const dx = Math.cos(theta);
      const dy = Math.sin(theta);
      let sum = 0;
      let count = 0;
      for (let k = -steps; k <= steps; k++) {
        const sx = Math.round(x + dx * k);
        const sy = Math.round(y + dy * k);
        if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
        sum += noise[sy * width + sx]!;
        count++;
      }
      out[i] = sum / count;
    }
  }
  return out;
}

/** Lights a stroke height field from the upper left and multiplies it in: paint that has thickness. */
function impasto(image: RawImage, strokes: Float32Array, strength: number): RawImage {
  const { width, height } = image;
  const [out, outBuffer] = clampedBuffer(image.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const dx = strokes[x < width - 1 ? i + 1 : i]! - strokes[x > 0 ? i - 1 : i]!;
      const dy = strokes[y < height - 1 ? i + width : i]! - strokes[y > 0 ? i - width : i]!;
      const light = 1 + strength * 4 * (-dx - dy) + (strokes[i]! - 0.5) * 0.25;
      const p = i * 3;
      out[p] = image.data[p]! * light;
      out[p + 1] = image.data[p + 1]! * light;
      out[p + 2] = image.data[p + 2]! * light;
    }
  }
  return { ...image, data: outBuffer };
}

/** A faint over-under thread pattern, as on primed linen. */
function canvasWeave(image: RawImage, period: number): RawImage {
  const { width, height } = image;
  const [out, outBuffer] = clampedBuffer(image.data.length);
  const w = (2 * Math.PI) / Math.max(2, period);
  for (let y = 0; y < height; y++) {
    const sy = Math.sin(y * w);
    for (let x = 0; x < width; x++) {
      const sx = Math.sin(x * w);
      const f = 1 + 0.035 * (sx * sy > 0 ? sx : sy);
      const p = (y * width + x) * 3;
      out[p] = image.data[p]! * f;
      out[p + 1] = image.data[p + 1]! * f;
      out[p + 2] = image.data[p + 2]! * f;
    }
  }
  return { ...image, data: outBuffer };
}

// ---------------------------------------------------------------------------------------------------
// Watercolour: light washes, bleeding soft edges, pigment pooling at borders, paper.

const PAPER: readonly [number, number, number] = [250, 247, 240];

async function watercolor(photo: RawImage, seed: number, checkpoint: Checkpoint): Promise<StyleResult> {
  const { width, height } = photo;
  const rng = createRng(seed ^ 0x3a7e);
  const shapes = kuwahara(await medianImage(photo, 5), px(photo, 5));
  await checkpoint();
  // Washes: the shapes, nudged off their outlines by smooth noise (paint never quite stays inside
  // the drawing) and softened so colour bleeds into its neighbours.
  const washes = await rawFrom(
    toSharp(warp(shapes, rng, 60 * scaleOf(photo), 4 * scaleOf(photo)))
      .blur(2.2 * scaleOf(photo))
      .modulate({ saturation: 1.2 }),
  );
  await checkpoint();
  // Pigment collects where a wash dries: darker rims along the borders of the (unblurred) shapes.
  const rims = await blurPlane(sobel(luminance(shapes)), 1.2 * scaleOf(photo));
  // A light pencil underdrawing keeps eyes and outlines readable under the loose paint.
  const drawing = await inkLines(luminance(shapes), {
    sigma: 1.1 * scaleOf(photo),
    tau: 0.99,
    epsilon: -0.01,
    phi: 40,
  });
  await checkpoint();
  const turbulence = fractalNoise(rng, width, height, { cell: 110 * scaleOf(photo), octaves: 4 });
  const granulation = fractalNoise(rng, width, height, { cell: 3, octaves: 2 });
  const [out, outBuffer] = clampedBuffer(photo.data.length);
  for (let i = 0, p = 0; i < width * height; i++, p += 3) {
    // Bousseau et al.'s pigment-density model: C' = C - (C - C²)(d - 1); d > 1 darker, d < 1 lighter.
    const density =
      0.8 + 0.4 * turbulence[i]! + 0.3 * (granulation[i]! - 0.5) + Math.min(0.7, rims.data[i]! / 70);
    const pencil = 1 - 0.35 * (1 - drawing.data[i]! / 255);
    for (let c = 0; c < 3; c++) {
      // A lighter palette: watercolour is transparent pigment over white paper, never solid black.
      const lifted = 1 - (1 - washes.data[p + c]! / 255) * 0.66;
      const colour = lifted - (lifted - lifted * lifted) * (density - 1);
      out[p + c] = colour * pencil * PAPER[c]!;
    }
  }
  await checkpoint();
  const painted: RawImage = { ...photo, data: outBuffer };
  return {
    image: deckleEdge(painted, rng),
    steps: [
      'simplified shapes (median and Kuwahara filters)',
      'washes bled past the outlines and softened',
      'pigment pooling at the borders, turbulent density and paper granulation',
      'light pencil underdrawing; transparent palette on warm white paper with an uneven border',
    ],
  };
}

/** Moves each pixel by a smooth random offset of up to `amount` px: wobbly, hand-made edges. */
function warp(image: RawImage, rng: () => number, cell: number, amount: number): RawImage {
  const { width, height } = image;
  const offsetX = fractalNoise(rng, width, height, { cell, octaves: 3 });
  const offsetY = fractalNoise(rng, width, height, { cell, octaves: 3 });
  const out = Buffer.alloc(image.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const sx = Math.min(width - 1, Math.max(0, Math.round(x + (offsetX[i]! - 0.5) * 2 * amount)));
      const sy = Math.min(height - 1, Math.max(0, Math.round(y + (offsetY[i]! - 0.5) * 2 * amount)));
      const from = (sy * width + sx) * 3;
      out[i * 3] = image.data[from]!;
      out[i * 3 + 1] = image.data[from + 1]!;
      out[i * 3 + 2] = image.data[from + 2]!;
    }
  }
  return { ...image, data: out };
}

/** Fades to bare paper near the edges along a noisy line, like a painting that stops short of the sheet. */
function deckleEdge(image: RawImage, rng: () => number): RawImage {
  const { width, height } = image;
  const margin = Math.min(width, height) * 0.045;
  const noise = fractalNoise(rng, width, height, { cell: margin * 1.5, octaves: 3 });
  const [out, outBuffer] = clampedBuffer(image.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const edge = Math.min(x, y, width - 1 - x, height - 1 - y);
      const t = Math.min(1, Math.max(0, (edge - margin * (0.4 + 1.2 * noise[i]!)) / (margin * 0.35)));
      const p = i * 3;
      for (let c = 0; c < 3; c++) out[p + c] = PAPER[c]! + (image.data[p + c]! - PAPER[c]!) * t;
    }
  }
  return { ...image, data: outBuffer };
}

// ---------------------------------------------------------------------------------------------------
// Pencil: colour-dodge sketch, hatching in the shadows, paper grain.

async function pencil(photo: RawImage, seed: number, checkpoint: Checkpoint): Promise<StyleResult> {
  const { width, height } = photo;
  const gray = luminance(await rawFrom(toSharp(photo).normalise({ lower: 1, upper: 99 })));
  const inverted: Plane = { ...gray, data: gray.data.map((v) => 255 - v) };
  const blurredInverse = await blurPlane(inverted, 7 * scaleOf(photo));
  await checkpoint();
  const tone = await blurPlane(gray, 2.5 * scaleOf(photo));
  const rng = createRng(seed ^ 0x9e3c);
  const hatching = hatchTexture(rng, width, height, scaleOf(photo));
  await checkpoint();
  const grain = fractalNoise(rng, width, height, { cell: 2.5, octaves: 2 });
  const [out, outBuffer] = clampedBuffer(photo.data.length);
  for (let i = 0, p = 0; i < width * height; i++, p += 3) {
    // Colour dodge: base / (1 - blend). Flat areas burn out to white, edges stay as graphite lines.
    const base = gray.data[i]! / 255;
    const blend = blurredInverse.data[i]! / 255;
    const dodge = blend >= 1 ? 1 : Math.min(1, base / (1 - blend));
    let value = Math.pow(dodge, 2.2);
    // Shadows get diagonal strokes, denser the darker the area.
    const darkness = Math.max(0, 0.62 - tone.data[i]! / 255) / 0.62;
    value *= 1 - darkness * 0.75 * hatching[i]!;
    // Paper tooth: graphite catches on the raised fibres.
    value *= 0.96 + 0.07 * grain[i]!;
    const v = value * 255;
    // A barely warm paper; still reads (and measures) as a grey drawing.
    out[p] = v;
    out[p + 1] = v * 0.993;
    out[p + 2] = v * 0.982;
  }
  return {
    image: { ...photo, data: outBuffer },
    steps: [
      'greyscale, inverted and blurred',
      'colour-dodge blend into a graphite sketch',
      'diagonal hatching in the shadows',
      'paper grain',
    ],
  };
}

/** Short diagonal pencil strokes, 0 (paper) to 1 (full stroke): noise smeared along 45°. */
function hatchTexture(rng: () => number, width: number, height: number, scale: number): Float32Array {
  const raw = new Float32Array(width * height);
  for (let i = 0; i < raw.length; i++) raw[i] = rng();
  const out = new Float32Array(width * height);
  const length = Math.max(4, Math.round(10 * scale));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      let count = 0;
      for (let k = -length; k <= length; k++) {
        const sx = x + k;
        const sy = y - k;
        if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
        sum += raw[sy * width + sx]!;
        count++;
      }
      // Averaging pulls values to 0.5; stretch so that only the darker streaks become strokes.
      const v = (sum / count - 0.5) * Math.sqrt(count) * 1.4 + 0.35;
      out[y * width + x] = Math.min(1, Math.max(0, v));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Pop art: a 2×2 screen-print grid, four flat tones per panel, Ben-Day dots, black outlines.

/** Each palette: shadow, dots, midtone, highlight. Bold, clashing, like Warhol's prints. */
const POP_PALETTES: ReadonlyArray<readonly [string, string, string, string]> = [
  ['#1d1160', '#e4007c', '#ff7a00', '#ffe53b'],
  ['#002b36', '#ff3f6c', '#00b3a4', '#f9f871'],
  ['#3b0a45', '#2d9cdb', '#ff4fa3', '#fff3b0'],
  ['#2b1d0e', '#ff5a1f', '#7ac943', '#ffd6e8'],
  ['#0b3d91', '#ffcc00', '#ff2a2a', '#f4f1de'],
  ['#1b1b3a', '#a100f2', '#00e0c6', '#fefae0'],
];

async function popArt(photo: RawImage, seed: number, checkpoint: Checkpoint): Promise<StyleResult> {
  const tileWidth = Math.floor(photo.width / 2);
  const tileHeight = Math.floor(photo.height / 2);
  const tile = await rawFrom(
    toSharp(await medianImage(photo, 5))
      .resize(tileWidth, tileHeight, { fit: 'fill' })
      .normalise({ lower: 2, upper: 98 }),
  );
  await checkpoint();
  const gray = await blurPlane(luminance(tile), 1.2 * scaleOf(tile));
  const thresholds = quantiles(gray.data, [0.22, 0.5, 0.78]);
  const outlines = hardenInk(
    await inkLines(gray, { sigma: 1.1 * scaleOf(tile), tau: 0.985, epsilon: 0, phi: 120 }),
    140,
  );
  await checkpoint();
  const rng = createRng(seed ^ 0x5eed);
  const order = shuffled(rng, POP_PALETTES.length).slice(0, 4);
  const width = tileWidth * 2;
  const height = tileHeight * 2;
  const out = Buffer.alloc(width * height * 3);
  const dotPeriod = Math.max(6, Math.round(14 * scaleOf(tile)));
  for (let t = 0; t < 4; t++) {
    const palette = POP_PALETTES[order[t]!]!.map(hexToRgb);
    const offsetX = (t % 2) * tileWidth;
    const offsetY = Math.floor(t / 2) * tileHeight;
    for (let y = 0; y < tileHeight; y++) {
      for (let x = 0; x < tileWidth; x++) {
        const i = y * tileWidth + x;
        const v = gray.data[i]!;
        let colour: readonly number[];
        if (outlines.data[i] === 0) colour = [12, 10, 14];
        else if (v < thresholds[0]!) colour = palette[0]!;
        else if (v < thresholds[1]!) {
          // Ben-Day dots on a 45° grid; hard-edged like print, the dot size follows the tone.
          const u = (x + y) / dotPeriod;
          const w = (x - y) / dotPeriod;
          const du = u - Math.round(u);
          const dw = w - Math.round(w);
          const radius = 0.22 + 0.25 * ((thresholds[1]! - v) / Math.max(1, thresholds[1]! - thresholds[0]!));
          colour = du * du + dw * dw < radius * radius ? palette[1]! : palette[2]!;
        } else if (v < thresholds[2]!) colour = palette[2]!;
        else colour = palette[3]!;
        const p = ((offsetY + y) * width + offsetX + x) * 3;
        out[p] = colour[0]!;
        out[p + 1] = colour[1]!;
        out[p + 2] = colour[2]!;
      }
    }
  }
  return {
    image: { data: out, width, height, channels: 3 },
    steps: [
      'smoothed and posterised into four tones',
      'four screen-print panels in a 2×2 grid, each with its own bold palette',
      'Ben-Day halftone dots in the midtones',
      'bold black outlines',
    ],
  };
}

function quantiles(data: Uint8Array, fractions: number[]): number[] {
  const histogram = new Uint32Array(256);
  for (const v of data) histogram[v]!++;
  return fractions.map((fraction) => {
    const target = fraction * data.length;
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += histogram[v]!;
      if (seen >= target) return v;
    }
    return 255;
  });
}

function shuffled(rng: () => number, count: number): number[] {
  const items = Array.from({ length: count }, (_, i) => i);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
