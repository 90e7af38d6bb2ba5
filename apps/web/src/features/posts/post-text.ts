import type { TPost } from '../../lib/api-types';

/** How an author is named: their full name, else their username, else the fallback. */
export function authorName(
  author: Pick<TPost['author'], 'firstName' | 'lastName' | 'username'>,
  fallback: string,
) {
  return [author.firstName, author.lastName].filter(Boolean).join(' ') || author.username || fallback;
}

/** Counts in the reader's language: 1 234, 12,5 K… */
export function compactCount(value: number, language: string): string {
  return new Intl.NumberFormat(language, { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}
