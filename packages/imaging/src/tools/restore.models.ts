/**
 * The pixel rules of old-photo restoration, on RGB bytes: how noisy the photo is, which pixels are
 * scratches and dust and how they are filled, and the tone and colour repair of a faded, yellowed
 * print (the smoothing is in denoise.models.ts). No I/O; the restore tool (restore.ts) runs them.
 */

export interface Rgb {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface Plane {
  data: Uint8Array;
  width: number;
  height: number;
}

export function luminanceOf(image: Rgb): Uint8Array {
  const out = new Uint8Array(image.width * image.height);
  const { data } = image;
  for (let i = 0, p = 0; i < out.length; i++, p += 3) {
    out[i] = (77 * data[p]! + 150 * data[p + 1]! + 29 * data[p + 2]! + 128) >> 8;
  }
  return out;
}

/**
 * The standard deviation of the photo's noise, in 0–255 steps (Immerkær's estimator: the response
 * to a mask that cancels planes and gentle curves is mostly noise). Edges inflate it somewhat, so
 * the strongest tenth of responses (edges and texture) is left out.
 */
export function estimateNoise(luma: Uint8Array, width: number, height: number): number {
  if (width < 3 || height < 3) return 0;
  const responses = new Uint16Array((width - 2) * (height - 2));
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const value =
        luma[i - width - 1]! -
        2 * luma[i - width]! +
        luma[i - width + 1]! -
        2 * luma[i - 1]! +
        4 * luma[i]! -
        2 * luma[i + 1]! +
        luma[i + width - 1]! -
        2 * luma[i + width]! +
        luma[i + width + 1]!;
      responses[n++] = Math.min(65535, Math.abs(value));
    }
  }
  const histogram = new Uint32Array(65536);
  for (let i = 0; i < n; i++) histogram[responses[i]!]!++;
  const keep = Math.floor(n * 0.9);
  let sum = 0;
  let counted = 0;
  for (let v = 0; v < histogram.length && counted < keep; v++) {
    const take = Math.min(histogram[v]!, keep - counted);
    sum += take * v;
    counted += take;
  }
  // The trimmed mean of |N∗I| of Gaussian noise is ~0.86 of the full one (the top 10% cut).
  return counted === 0 ? 0 : (Math.sqrt(Math.PI / 2) * (sum / counted)) / 6 / 0.86;
}

export interface DefectOptions {
  /** Noise σ of the photo (estimateNoise): defects must stand out well above it. */
  noise: number;
  /** Pixels never counted as defects (catchlights in eyes, which look exactly like dust). */
  protect?: Uint8Array;
}

export interface Defects {
  /** 1 where a scratch or speck was found (grown by a pixel to take its soft edge). */
  mask: Uint8Array;
  /** How many separate scratches and specks. */
  count: number;
}

/**
 * Scratches and dust: thin or tiny marks much brighter or darker than the photo's median around
 * them (the median of a window wider than a mark does not see it). A pixel is a candidate when it
 * differs from the median by far more than the noise and than the texture nearby (the local median
 * of the same differences: hair and fabric have many, a scratch across a cheek stands alone; a
 * median, unlike a mean, is not raised by the scratch itself). Joined candidates are a scratch when
 * long and thin, a speck when small and on a smooth surrounding (a small mark amid detail, such
 * as a letter, a tooth or a catchlight, is part of the picture); anything else is kept.
 */
export function findDefects(image: Rgb, median: Rgb, options: DefectOptions): Defects {
  const { width, height } = image;
  const count = width * height;
  const luma = luminanceOf(image);
  const medianLuma = luminanceOf(median);
  const magnitude = new Uint8Array(count);
  for (let i = 0; i < count; i++) magnitude[i] = Math.min(255, Math.abs(luma[i]! - medianLuma[i]!));
  const long = Math.max(width, height);
  const texture = medianFilter(magnitude, width, height, Math.max(5, Math.round(long / 100)));
  const floor = Math.max(24, 4.5 * options.noise);
  const candidate = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    if (options.protect?.[i]) continue;
    if (magnitude[i]! <= floor || magnitude[i]! <= 4 * texture[i]!) continue;
    // Beside an edge the median moves the edge a little and leaves a difference too, but there the
    // pixel still lies between the two sides' tones; a mark lies beyond everything around it.
    const x = i % width;
    const y = (i - x) / width;
    let low = 255;
    let high = 0;
    for (let dy = -2; dy <= 2; dy++) {
      const ny = Math.min(height - 1, Math.max(0, y + dy));
      for (let dx = -2; dx <= 2; dx++) {
        const value = medianLuma[ny * width + Math.min(width - 1, Math.max(0, x + dx))]!;
        if (value < low) low = value;
        if (value > high) high = value;
      }
    }
    if (luma[i]! > high + floor / 2 || luma[i]! < low - floor / 2) candidate[i] = 1;
  }
  const maxSpeck = Math.max(12, Math.round((long / 512) ** 2 * 30));
  const maxThickness = Math.max(3.5, long / 200);
  // Scratches on prints run a good part of the way across; shorter thin lines are usually drawn
  // things (a spire, a cable, a seam) and stay.
  const minScratch = Math.max(16, long / 7);
  // Dust on a scan is near black or white: a speck must stand out clearly, not just above the noise.
  const minSpeckStrength = Math.max(40, 6 * options.noise);
  const neighbourhood = Math.max(6, Math.round(long / 40));
  const { labels, components } = labelComponents(candidate, width, height, magnitude);
  const accepted = new Uint8Array(components.length + 1);
  let found = 0;
  for (const component of components) {
    const { minX, minY, maxX, maxY, area } = component;
    const length = Math.hypot(maxX - minX + 1, maxY - minY + 1);
    // Twice the area over the outline is a band's width, however it bends or crosses another.
    const isScratch = length >= minScratch && (2 * area) / component.outline <= maxThickness;
    const isSpeck =
      area <= maxSpeck &&
      component.strength / area >= minSpeckStrength &&
      surroundingRange(medianLuma, width, height, minX, minY, maxX, maxY, 3) <
        0.6 * (component.strength / area) &&
      // Dust falls alone; marks in a cluster are letters, a pattern or texture.
      neighboursAround(labels, width, height, component, neighbourhood) < 2;
    if (!isScratch && !isSpeck) continue;
    accepted[component.label] = 1;
    found++;
  }
  const mask = new Uint8Array(count);
  for (let i = 0; i < count; i++) if (accepted[labels[i]!]) mask[i] = 1;
  return { mask: dilate(mask, width, height), count: found };
}

interface Component {
  label: number;
  area: number;
  /** Pixels of the component with a 4-neighbour outside it (or on the picture's border). */
  outline: number;
  /** Sum of the pixels' differences from the median. */
  strength: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** 8-connected components of a mask: a label per pixel (0 outside) and each component's extent. */
function labelComponents(
  mask: Uint8Array,
  width: number,
  height: number,
  strengthOf?: Uint8Array,
): { labels: Int32Array; components: Component[] } {
  const count = width * height;
  const labels = new Int32Array(count);
  const components: Component[] = [];
  const stack: number[] = [];
  for (let start = 0; start < count; start++) {
    if (!mask[start] || labels[start]) continue;
    const component: Component = {
      label: components.length + 1,
      area: 0,
      outline: 0,
      strength: 0,
      minX: width,
      minY: height,
      maxX: 0,
      maxY: 0,
    };
    components.push(component);
    stack.push(start);
    labels[start] = component.label;
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % width;
      const y = (i - x) / width;
      component.area++;
      component.strength += strengthOf?.[i] ?? 0;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) component.outline++;
      else if (!mask[i - 1] || !mask[i + 1] || !mask[i - width] || !mask[i + width]) component.outline++;
      if (x < component.minX) component.minX = x;
      if (x > component.maxX) component.maxX = x;
      if (y < component.minY) component.minY = y;
      if (y > component.maxY) component.maxY = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const j = ny * width + nx;
          if (mask[j] && !labels[j]) {
            labels[j] = component.label;
            stack.push(j);
          }
        }
      }
    }
  }
  return { labels, components };
}

/** How many other components have a pixel within `reach` of this one's box. */
function neighboursAround(
  labels: Int32Array,
  width: number,
  height: number,
  component: Component,
  reach: number,
) {
  const others = new Set<number>();
  for (let y = Math.max(0, component.minY - reach); y <= Math.min(height - 1, component.maxY + reach); y++) {
    for (let x = Math.max(0, component.minX - reach); x <= Math.min(width - 1, component.maxX + reach); x++) {
      const label = labels[y * width + x]!;
      if (label && label !== component.label) others.add(label);
    }
  }
  return others.size;
}

/**
 * The spread of a plane's tones over a box grown by `grow` pixels: the 10th to the 90th percentile,
 * so one edge at the box's corner (a lip, a collar) does not make a smooth patch look busy.
 */
function surroundingRange(
  plane: Uint8Array,
  width: number,
  height: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  grow: number,
): number {
  const values: number[] = [];
  for (let y = Math.max(0, minY - grow); y <= Math.min(height - 1, maxY + grow); y++) {
    for (let x = Math.max(0, minX - grow); x <= Math.min(width - 1, maxX + grow); x++) {
      values.push(plane[y * width + x]!);
    }
  }
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length * 0.9)]! - values[Math.floor(values.length * 0.1)]!;
}

/**
 * Median of a byte plane over a (2r+1)² window (edges clamped), with a running histogram per row:
 * O(pixels × window side) rather than × window area.
 */
export function medianFilter(plane: Uint8Array, width: number, height: number, r: number): Uint8Array {
  const out = new Uint8Array(plane.length);
  const histogram = new Uint32Array(256);
  const side = 2 * r + 1;
  const half = Math.floor((side * side) / 2);
  const at = (x: number, y: number) =>
    plane[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))]!;
  for (let y = 0; y < height; y++) {
    histogram.fill(0);
    for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) histogram[at(dx, y + dy)]!++;
    for (let x = 0; x < width; x++) {
      if (x > 0) {
        for (let dy = -r; dy <= r; dy++) {
          histogram[at(x - r - 1, y + dy)]!--;
          histogram[at(x + r, y + dy)]!++;
        }
      }
      let seen = 0;
      let v = 0;
      for (; v < 255; v++) {
        seen += histogram[v]!;
        if (seen > half) break;
      }
      out[y * width + x] = v;
    }
  }
  return out;
}

/** Grows a mask by one pixel (8-neighbourhood). */
export function dilate(mask: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx >= 0 && nx < width) out[ny * width + nx] = 1;
        }
      }
    }
  }
  return out;
}

/**
 * Fills the masked pixels: first with the median (which a thin mark does not reach), then a few
 * rounds of averaging with their unmasked and already-filled neighbours, so a long scratch leaves no
 * blocky trace of the median's window.
 */
export function fillDefects(image: Rgb, median: Rgb, mask: Uint8Array, rounds = 4): Rgb {
  const { width, height } = image;
  const out = Uint8Array.from(image.data);
  const masked: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    masked.push(i);
    out[i * 3] = median.data[i * 3]!;
    out[i * 3 + 1] = median.data[i * 3 + 1]!;
    out[i * 3 + 2] = median.data[i * 3 + 2]!;
  }
  for (let round = 0; round < rounds; round++) {
    for (const i of masked) {
      const x = i % width;
      const y = (i - x) / width;
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (const [dx, dy] of NEIGHBOURS) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const j = (ny * width + nx) * 3;
        r += out[j]!;
        g += out[j + 1]!;
        b += out[j + 2]!;
        n++;
      }
      out[i * 3] = Math.round(r / n);
      out[i * 3 + 1] = Math.round(g / n);
      out[i * 3 + 2] = Math.round(b / n);
    }
  }
  return { data: out, width, height };
}

const NEIGHBOURS = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
  [-1, -1],
  [1, -1],
  [-1, 1],
  [1, 1],
] as const;

/** Per channel: the input values that become 0 and 255. */
export interface Levels {
  low: [number, number, number];
  high: [number, number, number];
}

/**
 * Where each channel's tones really start and end (the 0.5th and 99.5th percentiles). A faded
 * print has its blacks lifted and its whites dimmed, and a yellowed one has the blue channel's
 * range shifted most: stretching each channel to its own range restores contrast and removes most
 * of the cast at once. A channel already close to the full range is left as is; the stretch is at
 * most 3× (a nearly flat picture must not turn into noise).
 */
export function measureLevels(image: Rgb): Levels {
  const low: [number, number, number] = [0, 0, 0];
  const high: [number, number, number] = [255, 255, 255];
  const count = image.width * image.height;
  for (let c = 0; c < 3; c++) {
    const histogram = new Uint32Array(256);
    for (let i = 0; i < count; i++) histogram[image.data[i * 3 + c]!]!++;
    let lo = percentile(histogram, count, 0.005);
    let hi = percentile(histogram, count, 0.995);
    if (hi - lo < 255 / 3) {
      const mid = (hi + lo) / 2;
      lo = Math.max(0, mid - 255 / 6);
      hi = Math.min(255, mid + 255 / 6);
    }
    if (lo <= 6 && hi >= 249) continue;
    low[c] = lo;
    high[c] = hi;
  }
  return { low, high };
}

function percentile(histogram: Uint32Array, count: number, share: number): number {
  const wanted = share * count;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen > wanted) return v;
  }
  return 255;
}

/** How far from neutral the photo's greys are: per-channel gains that would make them grey. */
export function measureCast(image: Rgb): [number, number, number] {
  const count = image.width * image.height;
  const { data } = image;
  // The least colourful quarter of the mid-tones stands for the photo's greys: in a colourful
  // picture they are still the nearest to neutral, in a yellowed print they carry the cast.
  const chroma = new Uint8Array(count);
  const histogram = new Uint32Array(256);
  let mids = 0;
  for (let i = 0; i < count; i++) {
    const r = data[i * 3]!;
    const g = data[i * 3 + 1]!;
    const b = data[i * 3 + 2]!;
    const l = (r + g + b) / 3;
    if (l < 40 || l > 230) {
      chroma[i] = 255;
      continue;
    }
    chroma[i] = Math.max(r, g, b) - Math.min(r, g, b);
    histogram[chroma[i]!]!++;
    mids++;
  }
  if (mids < count * 0.05) return [1, 1, 1];
  const limit = percentile(histogram, mids, 0.25);
  const sums: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < count; i++) {
    if (chroma[i]! > limit) continue;
    sums[0] += data[i * 3]!;
    sums[1] += data[i * 3 + 1]!;
    sums[2] += data[i * 3 + 2]!;
  }
  const grey = (sums[0] + sums[1] + sums[2]) / 3;
  return sums.map((sum) => (sum > 0 ? grey / sum : 1)) as [number, number, number];
}

/**
 * Applies the levels, then the part of the grey balance (`balance`, 0–1) the caller trusts, each
 * gain kept within ±20 % so a photo that is meant to be warm (a sunset) is not turned grey.
 */
export function applyTones(
  image: Rgb,
  levels: Levels,
  gains: [number, number, number],
  balance: number,
): Rgb {
  const out = new Uint8Array(image.data.length);
  const tables = [0, 1, 2].map((c) => {
    const gain = Math.min(1.2, Math.max(0.8, 1 + (gains[c]! - 1) * balance));
    const table = new Uint8Array(256);
    const span = Math.max(1, levels.high[c]! - levels.low[c]!);
    for (let v = 0; v < 256; v++) {
      const stretched = ((v - levels.low[c]!) / span) * 255;
      table[v] = Math.min(255, Math.max(0, Math.round(stretched * gain)));
    }
    return table;
  });
  for (let i = 0; i < out.length; i += 3) {
    out[i] = tables[0]![image.data[i]!]!;
    out[i + 1] = tables[1]![image.data[i + 1]!]!;
    out[i + 2] = tables[2]![image.data[i + 2]!]!;
  }
  return { data: out, width: image.width, height: image.height };
}
