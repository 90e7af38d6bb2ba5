/**
 * Masonry columns for pictures of known sizes: each goes under the column that is shortest so
 * far. Appending a page never moves what is already placed (no jump while scrolling), and heights
 * come from width/height, so the layout is known before any image loads (no layout shift).
 */
export function layoutMasonry(
  items: readonly { width: number; height: number }[],
  columnCount: number,
  /** Height each item adds besides its picture, in column widths (its caption). */
  extra = 0,
): number[][] {
  const count = Math.max(1, Math.floor(columnCount));
  const columns: number[][] = Array.from({ length: count }, () => []);
  const heights = new Array<number>(count).fill(0);
  items.forEach((item, index) => {
    let shortest = 0;
    for (let column = 1; column < count; column += 1) {
      if (heights[column]! < heights[shortest]! - 1e-9) shortest = column;
    }
    columns[shortest]!.push(index);
    const ratio = item.width > 0 && item.height > 0 ? item.height / item.width : 1;
    heights[shortest]! += ratio + extra;
  });
  return columns;
}

/** How many columns fit a width: two on phones, up to five on wide screens. */
export function masonryColumnCount(width: number, minColumnWidth = 220): number {
  if (!Number.isFinite(width) || width <= 0) return 2;
  return Math.min(5, Math.max(2, Math.floor(width / minColumnWidth)));
}
