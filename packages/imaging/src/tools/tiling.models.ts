/**
 * Running a fully convolutional super-resolution model over a photo in tiles: each tile is the
 * model's input with a margin of real neighbouring pixels on every side (mirrored at the photo's
 * edges), and neighbouring outputs are cross-faded over the margins so no seam shows. Only one
 * band of output rows is held as floats at a time, so a 1024 px photo made 4096 px needs tens of
 * megabytes, not the gigabyte a whole-image pass would.
 */

/** One stretch of an axis: the core a tile is responsible for, in input pixels. */
export interface AxisSpan {
  start: number;
  size: number;
}

/**
 * Splits an axis into cores of at most `core` pixels, all nearly the same size (a thin last tile
 * would cost a whole model call for a few pixels).
 */
export function planAxis(length: number, core: number): AxisSpan[] {
  const count = Math.max(1, Math.ceil(length / core));
  const spans: AxisSpan[] = [];
  for (let i = 0; i < count; i++) {
    const start = Math.round((i * length) / count);
    const end = Math.round(((i + 1) * length) / count);
    spans.push({ start, size: end - start });
  }
  return spans;
}

/**
 * The cross-fade weight of each output pixel of a tile along one axis, for a tile whose input is
 * its core plus `margin` pixels on both sides. The outer half of each margin gets no weight (a
 * convolution's zero padding spoils it), the inner half ramps up to 1 at the core's edge, so two
 * neighbours fade into each other over `margin` input pixels around their shared edge and the
 * weights of overlapping tiles never sum to zero.
 */
export function axisWeights(coreSize: number, margin: number, scale: number): Float32Array {
  const length = (coreSize + 2 * margin) * scale;
  const skip = (margin * scale) / 2;
  const ramp = (margin * scale) / 2;
  const weights = new Float32Array(length);
  for (let u = 0; u < length; u++) {
    const fromEdge = Math.min(u + 0.5, length - u - 0.5);
    weights[u] = ramp === 0 ? 1 : Math.min(1, Math.max(0, (fromEdge - skip) / ramp));
  }
  return weights;
}

/** Mirrors an index into 0…length-1 (…2 1 0 1 2… at the start), as the photo's edge padding. */
export function mirrorIndex(index: number, length: number): number {
  if (length === 1) return 0;
  const period = 2 * (length - 1);
  const wrapped = ((index % period) + period) % period;
  return wrapped < length ? wrapped : period - wrapped;
}

/**
 * The model's input for one tile: RGB floats 0–255, row by row, the core and its margin, pixels
 * beyond the photo mirrored.
 */
export function cutTile(
  image: { data: Uint8Array; width: number; height: number },
  x: AxisSpan,
  y: AxisSpan,
  margin: number,
): { pixels: Float32Array; width: number; height: number } {
  const width = x.size + 2 * margin;
  const height = y.size + 2 * margin;
  const pixels = new Float32Array(width * height * 3);
  const columns = new Int32Array(width);
  for (let u = 0; u < width; u++) columns[u] = mirrorIndex(x.start - margin + u, image.width) * 3;
  for (let v = 0; v < height; v++) {
    const row = mirrorIndex(y.start - margin + v, image.height) * image.width * 3;
    let out = v * width * 3;
    for (let u = 0; u < width; u++, out += 3) {
      const p = row + columns[u]!;
      pixels[out] = image.data[p]!;
      pixels[out + 1] = image.data[p + 1]!;
      pixels[out + 2] = image.data[p + 2]!;
    }
  }
  return { pixels, width, height };
}

export interface TiledRun {
  /** The photo, 3-channel RGB. */
  image: { data: Uint8Array; width: number; height: number };
  /** How many times larger the model's output is than its input. */
  scale: number;
  /** Largest core per tile, input pixels. */
  core: number;
  /** Context on every side of a core, input pixels (even, so half of it scaled is whole). */
  margin: number;
  /** The model on one tile: `scale`× larger RGB floats 0–255 (any values; they are clamped). */
  infer: (tile: { pixels: Float32Array; width: number; height: number }) => Promise<Float32Array>;
  /** After each tile, with the share of tiles done (0–1]; awaited: the place to yield or stop. */
  afterTile?: (fraction: number) => Promise<void> | void;
}

/** The whole photo through the model, tile by tile: RGB bytes `scale`× larger. */
export async function runTiled(run: TiledRun): Promise<{ data: Buffer; width: number; height: number }> {
  const { image, scale, core, margin } = run;
  if (margin % 2 !== 0) throw new Error('the tile margin must be even');
  const outWidth = image.width * scale;
  const outHeight = image.height * scale;
  const output = Buffer.alloc(outWidth * outHeight * 3);
  const columns = planAxis(image.width, core);
  const rows = planAxis(image.height, core);
  const total = columns.length * rows.length;
  const half = (margin / 2) * scale;
  // The band of output rows that the current tile row can still touch, as weighted sums.
  const bandCapacity = (Math.max(...rows.map((row) => row.size)) + margin) * scale;
  const band = new Float32Array(bandCapacity * outWidth * 3);
  const bandWeight = new Float32Array(bandCapacity * outWidth);
  let bandTop = 0;
  let done = 0;
  const columnWeights = columns.map((column) => axisWeights(column.size, margin, scale));
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const top = Math.max(0, row.start * scale - half);
    const bottom = Math.min(outHeight, (row.start + row.size) * scale + half);
    if (r > 0) {
      // Rows this tile row can reach that the previous one also reached move to the band's start.
      const from = top - bandTop;
      const keep = bandCapacity - from;
      band.copyWithin(0, from * outWidth * 3, bandCapacity * outWidth * 3);
      band.fill(0, keep * outWidth * 3);
      bandWeight.copyWithin(0, from * outWidth, bandCapacity * outWidth);
      bandWeight.fill(0, keep * outWidth);
    }
    bandTop = top;
    const rowWeights = axisWeights(row.size, margin, scale);
    for (let c = 0; c < columns.length; c++) {
      const column = columns[c]!;
      const tile = cutTile(image, column, row, margin);
      const result = await run.infer(tile);
      const tileWidth = tile.width * scale;
      const tileHeight = tile.height * scale;
      if (result.length !== tileWidth * tileHeight * 3) {
        throw new Error(`the model returned ${result.length} values for a ${tileWidth}×${tileHeight} tile`);
      }
      const wx = columnWeights[c]!;
      const originX = (column.start - margin) * scale;
      const originY = (row.start - margin) * scale;
      for (let v = 0; v < tileHeight; v++) {
        const wy = rowWeights[v]!;
        const outY = originY + v;
        if (wy === 0 || outY < top || outY >= bottom) continue;
        const bandRow = (outY - bandTop) * outWidth;
        for (let u = 0; u < tileWidth; u++) {
          const outX = originX + u;
          const weight = wx[u]! * wy;
          if (weight === 0 || outX < 0 || outX >= outWidth) continue;
          const source = (v * tileWidth + u) * 3;
          const target = bandRow + outX;
          band[target * 3] = band[target * 3]! + weight * result[source]!;
          band[target * 3 + 1] = band[target * 3 + 1]! + weight * result[source + 1]!;
          band[target * 3 + 2] = band[target * 3 + 2]! + weight * result[source + 2]!;
          bandWeight[target] = bandWeight[target]! + weight;
        }
      }
      done++;
      await run.afterTile?.(done / total);
    }
    // Rows above the next tile row's reach are final.
    const nextRow = rows[r + 1];
    const finalUntil = nextRow ? Math.max(0, nextRow.start * scale - half) : outHeight;
    for (let y = bandTop; y < finalUntil; y++) {
      const bandRow = (y - bandTop) * outWidth;
      for (let x = 0; x < outWidth; x++) {
        const weight = bandWeight[bandRow + x]!;
        const source = (bandRow + x) * 3;
        const target = (y * outWidth + x) * 3;
        for (let k = 0; k < 3; k++) {
          const value = weight > 0 ? band[source + k]! / weight : 0;
          output[target + k] = value <= 0 ? 0 : value >= 255 ? 255 : Math.round(value);
        }
      }
    }
  }
  return { data: output, width: outWidth, height: outHeight };
}
