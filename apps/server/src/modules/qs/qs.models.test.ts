import { describe, expect, it } from 'vitest';
import { generateQsId, isQsId, normaliseQueryString, startParamFor } from './qs.models.js';

describe('saved query string ids', () => {
  it('are 12 unguessable base64url characters that fit a start parameter', () => {
    const ids = Array.from({ length: 2000 }, generateQsId);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{12}$/);
      expect(isQsId(id)).toBe(true);
      // Telegram allows 64 characters of [A-Za-z0-9_-] in a start parameter.
      expect(startParamFor(id)).toMatch(/^qs_[A-Za-z0-9_-]{12}$/);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('are recognised only in the shape we make them', () => {
    expect(['a', 'A-z_09', 'x'.repeat(16)].every(isQsId)).toBe(true);
    for (const bad of ['', 'x'.repeat(17), 'qs_abc.def', '../etc', 'abc def', 'абв', 'a%20b']) {
      expect(isQsId(bad), bad).toBe(false);
    }
  });
});

describe('normaliseQueryString', () => {
  it.each([
    ['?utm_source=tg&model=42', 'utm_source=tg&model=42'],
    ['utm_source=tg', 'utm_source=tg'],
    ['  ?a=1  ', 'a=1'],
    // Only the one `?` location.search starts with; anything after it is the client's own.
    ['??a=1', '?a=1'],
    ['a=1?b=2', 'a=1?b=2'],
    ['?', ''],
    ['', ''],
  ])('%j → %j', (raw, expected) => {
    expect(normaliseQueryString(raw)).toBe(expected);
  });
});
