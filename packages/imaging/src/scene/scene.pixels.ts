import { hexToRgb, mixRgb, type Rgb } from '../raster/colour.js';
import { fractalLine, fractalNoise, range, type Rng } from '../raster/random.js';
import type { RawImage } from '../raster/raster.js';
import type { Layout } from './scene.svg.js';

/**
 * Scene layers that are natural per pixel rather than as vector shapes: starfields, glowing gas,
 * clouds, water reflections, bokeh. Each draws into the image in place (through a clamping view,
 * so additive light saturates instead of wrapping around).
 */

const view = (image: RawImage) =>
  new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
const smoothstep = (a: number, b: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

/** Adds light around (x, y): a small Gaussian splat, so stars and particles are round, not square. */
function splat(
  px: Uint8ClampedArray,
  width: number,
  height: number,
  x: number,
  y: number,
  radius: number,
  colour: Rgb,
  intensity: number,
) {
  const reach = Math.ceil(radius * 2.5);
  const x0 = Math.max(0, Math.floor(x - reach));
  const x1 = Math.min(width - 1, Math.ceil(x + reach));
  const y0 = Math.max(0, Math.floor(y - reach));
  const y1 = Math.min(height - 1, Math.ceil(y + reach));
  const inv = 1 / (2 * radius * radius);
  for (let yy = y0; yy <= y1; yy++) {
    for (let xx = x0; xx <= x1; xx++) {
      const d2 = (xx - x) * (xx - x) + (yy - y) * (yy - y);
      const f = intensity * Math.exp(-d2 * inv);
      if (f < 0.004) continue;
      const p = (yy * width + xx) * 3;
      px[p] = px[p]! + colour[0] * f;
      px[p + 1] = px[p + 1]! + colour[1] * f;
      px[p + 2] = px[p + 2]! + colour[2] * f;
    }
  }
}

export function drawStars(image: RawImage, layout: Layout, rng: Rng, density: number): void {
  const { width, height } = image;
  const px = view(image);
  const limit = layout.hasWater || layout.horizon < height ? layout.horizon : height;
  const count = Math.round(((width * limit) / 520) * density);
  const tints: Rgb[] = [
    [255, 255, 255],
    [200, 215, 255],
    [255, 236, 210],
    [255, 255, 240],
  ];
  for (let i = 0; i < count; i++) {
    const x = rng() * width;
    const y = rng() * limit;
    // Few bright stars, many faint ones; all fade out in the haze near the horizon.
    const magnitude = Math.pow(rng(), 5);
    const fade = 1 - smoothstep(0.65, 1, y / limit);
    const tint = tints[Math.floor(rng() * tints.length)]!;
    const radius = 0.45 + magnitude * 1.6;
    splat(px, width, height, x, y, radius, tint, (0.25 + 0.9 * magnitude + 0.3 * rng()) * fade);
    if (magnitude > 0.55) {
      // A faint cross flare on the brightest, as a camera would see them.
      for (let k = -10; k <= 10; k++) {
        const f = 0.18 * (1 - Math.abs(k) / 11) * fade;
        splat(px, width, height, x + k * 1.2, y, 0.6, tint, f);
        splat(px, width, height, x, y + k * 1.2, 0.6, tint, f);
      }
    }
  }
}

export function drawNebula(image: RawImage, rng: Rng, colours: [string, string, string]): void {
  const { width, height } = image;
  const px = view(image);
  const scale = Math.max(width, height) / 1024;
  const gas = fractalNoise(rng, width, height, { cell: 300 * scale, octaves: 6, persistence: 0.55 });
  const hue = fractalNoise(rng, width, height, { cell: 420 * scale, octaves: 3 });
  const dust = fractalNoise(rng, width, height, { cell: 140 * scale, octaves: 5 });
  const a = hexToRgb(colours[0]);
  const b = hexToRgb(colours[1]);
  const c = hexToRgb(colours[2]);
  for (let i = 0, p = 0; i < width * height; i++, p += 3) {
    const density = smoothstep(0.38, 0.85, gas[i]!);
    if (density <= 0) continue;
    const h = hue[i]!;
    const colour = h < 0.5 ? mixRgb(a, b, h * 2) : mixRgb(b, c, (h - 0.5) * 2);
    // Dark dust lanes eat into the glow, which makes it read as gas, not as a blur.
    const lane = 1 - 0.75 * smoothstep(0.55, 0.75, dust[i]!);
    const f = density * density * 0.9 * lane;
    px[p] = px[p]! * (1 - 0.3 * density) + colour[0] * f;
    px[p + 1] = px[p + 1]! * (1 - 0.3 * density) + colour[1] * f;
    px[p + 2] = px[p + 2]! * (1 - 0.3 * density) + colour[2] * f;
  }
}

/** A spiral galaxy from particles along logarithmic arms, seen at a tilt. */
export function drawGalaxy(image: RawImage, rng: Rng, colours: [string, string]): void {
  const { width, height } = image;
  const px = view(image);
  const cx = width * range(rng, 0.35, 0.65);
  const cy = height * range(rng, 0.3, 0.5);
  const radius = Math.min(width, height) * range(rng, 0.3, 0.42);
  const arms = 2 + Math.floor(rng() * 3);
  const twist = range(rng, 2.5, 4.5);
  const tilt = range(rng, 0.35, 0.6);
  const rotation = range(rng, 0, Math.PI);
  const core: Rgb = [255, 236, 200];
  const armA = hexToRgb(colours[0]);
  const armB = hexToRgb(colours[1]);
  const particles = Math.round(60000 * (radius / 400));
  for (let i = 0; i < particles; i++) {
    const r = Math.pow(rng(), 1.6);
    const arm = Math.floor(rng() * arms);
    const spread = (rng() - 0.5) * (0.55 + 0.6 * r) * (rng() < 0.3 ? 2.5 : 1);
    const angle = (arm * 2 * Math.PI) / arms + r * twist + spread;
    const dist = r * radius;
    const lx = Math.cos(angle) * dist;
    const ly = Math.sin(angle) * dist * tilt;
    const x = cx + lx * Math.cos(rotation) - ly * Math.sin(rotation);
    const y = cy + lx * Math.sin(rotation) + ly * Math.cos(rotation);
    const colour = r < 0.18 ? core : mixRgb(armA, armB, Math.min(1, r * 1.3 + (rng() - 0.5) * 0.4));
    splat(px, width, height, x, y, 0.7 + rng() * 0.8, colour, 0.16 * (1 - r * 0.6));
  }
  // The bright core.
  splat(px, width, height, cx, cy, radius * 0.07, core, 0.9);
  splat(px, width, height, cx, cy, radius * 0.2, core, 0.25);
}

export function drawAurora(image: RawImage, layout: Layout, rng: Rng): void {
  const { width, height } = image;
  const px = view(image);
  const green: Rgb = [60, 255, 160];
  const violet: Rgb = [150, 90, 255];
  for (let band = 0; band < 2; band++) {
    const baseY = layout.horizon * range(rng, 0.22, 0.42);
    const curve = fractalLine(rng, width, { cell: width * 0.5, octaves: 3 });
    // Rays: fine vertical structure, modulated by broad folds of the curtain.
    const fine = fractalLine(rng, width, { cell: 10, octaves: 3 });
    const folds = fractalLine(rng, width, { cell: width * 0.12, octaves: 2 });
    const streaks = fine.map((v, x) => 0.55 * v + 0.45 * folds[x]!);
    const reach = height * range(rng, 0.18, 0.3);
    const strength = band === 0 ? 0.75 : 0.45;
    for (let x = 0; x < width; x++) {
      const bottom = baseY + (curve[x]! - 0.5) * height * 0.25;
      const curtain = 0.35 + 0.65 * streaks[x]!;
      for (let y = Math.max(0, Math.floor(bottom - reach)); y < Math.min(layout.horizon, bottom + 12); y++) {
        const above = bottom - y;
        const f =
          above < 0
            ? Math.exp(above / 4)
            : Math.exp(-above / (reach * 0.35)) * 0.8 + 0.2 * Math.max(0, 1 - above / reach);
        const colour = mixRgb(green, violet, Math.min(1, Math.max(0, above / reach)));
        const p = (y * width + x) * 3;
        const k = f * curtain * strength;
        px[p] = px[p]! + colour[0] * k;
        px[p + 1] = px[p + 1]! + colour[1] * k;
        px[p + 2] = px[p + 2]! + colour[2] * k;
      }
    }
  }
}

export function drawClouds(
  image: RawImage,
  layout: Layout,
  rng: Rng,
  light: string,
  shadow: string,
  cover: number,
): void {
  const { width, height } = image;
  const px = view(image);
  const scale = Math.max(width, height) / 1024;
  // Generated at a third of the width and stretched back: clouds are seen from below at a low
  // angle, so they read as long horizontal streaks rather than round blobs.
  const stretch = 3;
  const narrow = Math.ceil(width / stretch) + 1;
  const field = fractalNoise(rng, narrow, height, { cell: 110 * scale, octaves: 6, persistence: 0.52 });
  const noise = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const fx = x / stretch;
      const x0 = Math.floor(fx);
      const t = fx - x0;
      noise[y * width + x] = field[y * narrow + x0]! * (1 - t) + field[y * narrow + x0 + 1]! * t;
    }
  }
  const lit = hexToRgb(light);
  const dark = hexToRgb(shadow);
  const threshold = 0.62 - 0.2 * cover;
  const top = layout.horizon;
  for (let y = 0; y < top; y++) {
    // Thin out towards the horizon and at the very top.
    const band = smoothstep(0, 0.15, y / top) * (1 - smoothstep(0.55, 1, y / top));
    if (band <= 0) continue;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const v = noise[i]!;
      const alpha = smoothstep(threshold, threshold + 0.22, v) * band * 0.92;
      if (alpha <= 0.002) continue;
      // Denser parts are lit (puffy tops), thinner edges take the shadow colour.
      const below = noise[Math.min(top - 1, y + Math.round(6 * scale)) * width + x]!;
      const shade = Math.min(1, Math.max(0, 0.55 + (v - below) * 9 + (v - threshold) * 1.2));
      const colour = mixRgb(dark, lit, shade);
      const p = i * 3;
      px[p] = px[p]! + (colour[0] - px[p]!) * alpha;
      px[p + 1] = px[p + 1]! + (colour[1] - px[p + 1]!) * alpha;
      px[p + 2] = px[p + 2]! + (colour[2] - px[p + 2]!) * alpha;
    }
  }
}

/**
 * Water mirrors what is above the horizon: each row below it samples the mirrored row above, shifted
 * sideways by a ripple that grows towards the viewer, then tinted with the water's own colour.
 */
export function reflect(image: RawImage, layout: Layout, rng: Rng, waterColour: string, calm: boolean): void {
  const { width, height, horizon } = { ...image, horizon: Math.round(layout.horizon) };
  const px = view(image);
  const source = Buffer.from(image.data);
  const water = hexToRgb(waterColour);
  const phase = range(rng, 0, Math.PI * 2);
  const ripple = fractalLine(rng, height, { cell: 3, octaves: 2 });
  for (let y = horizon; y < height; y++) {
    const t = (y - horizon) / Math.max(1, height - horizon);
    const mirrorY = Math.max(0, Math.min(horizon - 1, 2 * horizon - y - 1));
    // Ripples grow towards the viewer and the water's own colour takes over: a bright object high
    // in the sky breaks up into a shimmer instead of mirroring as a second disc near the bottom.
    const amplitude = (calm ? 2 : 6) + (calm ? 22 : 40) * t * t + (calm ? 6 : 10) * t;
    const mix = 0.3 + 0.55 * t * t;
    for (let x = 0; x < width; x++) {
      const wave = Math.sin(x * 0.02 + y * (calm ? 0.9 : 0.55) + phase) * 0.5 + (ripple[y]! - 0.5);
      const sx = Math.max(0, Math.min(width - 1, Math.round(x + wave * amplitude)));
      const from = (mirrorY * width + sx) * 3;
      const p = (y * width + x) * 3;
      px[p] = source[from]! * (1 - mix) * 0.92 + water[0] * mix;
      px[p + 1] = source[from + 1]! * (1 - mix) * 0.92 + water[1] * mix;
      px[p + 2] = source[from + 2]! * (1 - mix) * 0.95 + water[2] * mix;
    }
  }
}

/** Out-of-focus light discs: soft-edged, additive, bigger and fewer towards the front. */
export function drawBokeh(image: RawImage, rng: Rng, colours: string[], count: number): void {
  const { width, height } = image;
  const px = view(image);
  const scale = Math.max(width, height) / 1024;
  for (let i = 0; i < count; i++) {
    const r = (8 + 60 * Math.pow(rng(), 2)) * scale;
    const cx = rng() * width;
    const cy = rng() * height;
    const colour = hexToRgb(colours[Math.floor(rng() * colours.length)]!);
    const intensity = range(rng, 0.1, 0.35);
    const x0 = Math.max(0, Math.floor(cx - r - 2));
    const x1 = Math.min(width - 1, Math.ceil(cx + r + 2));
    const y0 = Math.max(0, Math.floor(cy - r - 2));
    const y1 = Math.min(height - 1, Math.ceil(cy + r + 2));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const d = Math.hypot(x - cx, y - cy) / r;
        if (d > 1.05) continue;
        // Flat disc with a slightly brighter rim, as real lens bokeh has.
        const f = intensity * (1 - smoothstep(0.9, 1.05, d)) * (0.8 + 0.3 * smoothstep(0.6, 0.95, d));
        const p = (y * width + x) * 3;
        px[p] = px[p]! + colour[0] * f;
        px[p + 1] = px[p + 1]! + colour[1] * f;
        px[p + 2] = px[p + 2]! + colour[2] * f;
      }
    }
  }
}

export function drawSnowfall(image: RawImage, rng: Rng): void {
  const { width, height } = image;
  const px = view(image);
  const count = Math.round((width * height) / 1400);
  for (let i = 0; i < count; i++) {
    const near = Math.pow(rng(), 3);
    splat(
      px,
      width,
      height,
      rng() * width,
      rng() * height,
      0.6 + near * 2.6,
      [255, 255, 255],
      0.35 + 0.5 * near,
    );
  }
}

/** Smooth multi-colour background: inverse-distance blend of a few coloured points (a "mesh gradient"). */
export function meshGradient(width: number, height: number, rng: Rng, colours: string[]): RawImage {
  const points = colours.map((colour) => ({ x: rng() * width, y: rng() * height, colour: hexToRgb(colour) }));
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let total = 0;
      for (const point of points) {
        const d2 = (x - point.x) ** 2 + (y - point.y) ** 2 + 1;
        const w = 1 / (d2 * d2);
        r += point.colour[0] * w;
        g += point.colour[1] * w;
        b += point.colour[2] * w;
        total += w;
      }
      const p = (y * width + x) * 3;
      data[p] = r / total;
      data[p + 1] = g / total;
      data[p + 2] = b / total;
    }
  }
  return { data, width, height, channels: 3 };
}
