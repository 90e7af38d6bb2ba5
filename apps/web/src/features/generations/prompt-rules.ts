import { PROMPT_MAX_LENGTH } from '@mirra/contracts';

// Letters English never uses even in loanwords: Azerbaijani ə ı ğ, Kazakh Latin ǵ ń.
const NEVER_ENGLISH = /[əƏığĞǵǴńŃ]/u;

/**
 * The quick client-side hint behind 'Only in English': any letter outside the Latin script
 * (Cyrillic, Greek, CJK…) or one English never has. The server decides (it also recognises
 * German and Azerbaijani written in plain Latin letters); this only warns while typing.
 */
export function looksNonEnglish(text: string): boolean {
  if (NEVER_ENGLISH.test(text)) return true;
  return (text.match(/\p{L}/gu) ?? []).some((letter) => !/\p{Script=Latin}/u.test(letter));
}

export type PromptProblem = 'tooLong' | 'notEnglish' | null;

/** What the prompt field warns about while typing, the length first (it blocks submitting). */
export function promptProblem(text: string, max = PROMPT_MAX_LENGTH): PromptProblem {
  if (text.trim().length > max) return 'tooLong';
  if (looksNonEnglish(text)) return 'notEnglish';
  return null;
}
