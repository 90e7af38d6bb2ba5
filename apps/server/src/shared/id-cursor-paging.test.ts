import { describe, expect, it } from 'vitest';
import { readIdCursorPage } from './id-cursor-paging.js';

const ids = [9, 8, 7, 6, 5, 4, 3, 2, 1].map((id) => ({ id }));
const readBefore = (beforeId: number | null, take: number) =>
  Promise.resolve(ids.filter((row) => beforeId === null || row.id < beforeId).slice(0, take));

describe('id-cursor paging', () => {
  it('reads the newest page and gives the cursor of the next', async () => {
    expect(await readIdCursorPage(undefined, 4, readBefore)).toEqual({
      page: [{ id: 9 }, { id: 8 }, { id: 7 }, { id: 6 }],
      next: '6',
    });
  });

  it('continues after the cursor and ends with no next cursor', async () => {
    expect(await readIdCursorPage('6', 4, readBefore)).toEqual({
      page: [{ id: 5 }, { id: 4 }, { id: 3 }, { id: 2 }],
      next: '2',
    });
    expect(await readIdCursorPage('2', 4, readBefore)).toEqual({ page: [{ id: 1 }], next: null });
  });

  it('starts from the newest on a malformed cursor', async () => {
    for (const cursor of ['', 'abc', '-3', '1.5', '1'.repeat(19)]) {
      expect((await readIdCursorPage(cursor, 2, readBefore)).page).toEqual([{ id: 9 }, { id: 8 }]);
    }
  });

  it('asks for one row past the limit', async () => {
    const asked: Array<[number | null, number]> = [];
    await readIdCursorPage('7', 3, (beforeId, take) => {
      asked.push([beforeId, take]);
      return Promise.resolve([]);
    });
    expect(asked).toEqual([[7, 4]]);
  });
});
