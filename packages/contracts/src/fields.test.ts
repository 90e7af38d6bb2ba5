import { describe, expect, it } from 'vitest';
import { fieldMessages, isFreeOfControlCharacters, optionalText, requiredText } from './fields.js';
import { ZCreateGenerationBody } from './generations.js';
import { ZReportBody } from './posts.js';

const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues[0]?.message;

describe('control characters in text fields', () => {
  it.each(['a\u0000b', 'a\u0001', '\u001Fx', 'x\u007F', 'line\nbreak', 'tab\there', 'a\rb'])(
    'one-line text refuses %j',
    (value) => {
      expect(isFreeOfControlCharacters(value)).toBe(false);
      expect(firstMessage(requiredText(50).safeParse(value))).toBe(fieldMessages.controlCharacters);
      expect(firstMessage(optionalText(50).safeParse(value))).toBe(fieldMessages.controlCharacters);
    },
  );

  it('multi-line text keeps tab and line breaks but refuses NUL and the other controls', () => {
    for (const kept of ['two\nlines', 'tab\there', 'windows\r\nline']) {
      expect(isFreeOfControlCharacters(kept, 'multi')).toBe(true);
      expect(ZReportBody.safeParse({ reason: 'spam', comment: kept }).success).toBe(true);
    }
    for (const refused of ['nul\u0000', 'bell\u0007', 'esc\u001B[0m', 'del\u007F', 'vt\u000B']) {
      expect(isFreeOfControlCharacters(refused, 'multi')).toBe(false);
      expect(firstMessage(ZReportBody.safeParse({ reason: 'spam', comment: refused }))).toBe(
        fieldMessages.controlCharacters,
      );
      expect(firstMessage(ZCreateGenerationBody.safeParse({ mode: 'simple', prompt: refused }))).toBe(
        fieldMessages.controlCharacters,
      );
    }
  });

  it('accepts ordinary text in every script, emoji included', () => {
    for (const value of ['Анна', 'Günter', 'Əli', 'Қазақ', '🙂 hi', 'x'.repeat(50)]) {
      expect(requiredText(50).safeParse(value).success).toBe(true);
    }
  });
});
