/**
 * Newest-first pages keyed by row id. The cursor is the last id of the page before, as a decimal
 * string; a missing or malformed one starts from the newest. One row past the limit is read to
 * know whether another page follows, and `next` is the cursor that reads it (null at the end).
 */
export async function readIdCursorPage<Row extends { id: number }>(
  cursor: string | undefined,
  limit: number,
  read: (beforeId: number | null, take: number) => Promise<Row[]>,
): Promise<{ page: Row[]; next: string | null }> {
  const beforeId = cursor && /^\d{1,18}$/.test(cursor) ? Number(cursor) : null;
  const rows = await read(beforeId, limit + 1);
  const page = rows.slice(0, limit);
  return { page, next: rows.length > limit ? String(page.at(-1)!.id) : null };
}
