/*
 * Moving the media data of an MP4 (inserting a box before it) breaks the file unless the sample
 * tables' chunk offsets move with it: stco (32-bit) and co64 (64-bit) hold absolute file positions.
 */

/** Boxes that only hold other boxes on the path from moov to the chunk offset tables. */
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'edts', 'dinf']);

/** Adds `by` to every chunk offset at or after `from` (positions in the file before the insertion). */
export function shiftChunkOffsets(data: Uint8Array, from: number, by: number): void {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  walk(view, 0, data.byteLength, from, by);
}

function walk(view: DataView, start: number, end: number, from: number, by: number): void {
  let offset = start;
  while (offset + 8 <= end) {
    let size = view.getUint32(offset);
    const type = String.fromCharCode(
      view.getUint8(offset + 4),
      view.getUint8(offset + 5),
      view.getUint8(offset + 6),
      view.getUint8(offset + 7),
    );
    let header = 8;
    if (size === 1) {
      size = Number(view.getBigUint64(offset + 8));
      header = 16;
    } else if (size === 0) size = end - offset;
    if (size < header || offset + size > end) return;
    if (CONTAINERS.has(type)) walk(view, offset + header, offset + size, from, by);
    else if (type === 'stco' || type === 'co64') {
      const count = view.getUint32(offset + header + 4);
      let entry = offset + header + 8;
      for (let i = 0; i < count; i++) {
        if (type === 'stco') {
          const value = view.getUint32(entry);
          if (value >= from) view.setUint32(entry, value + by);
          entry += 4;
        } else {
          const value = view.getBigUint64(entry);
          if (value >= BigInt(from)) view.setBigUint64(entry, value + BigInt(by));
          entry += 8;
        }
      }
    }
    offset += size;
  }
}
