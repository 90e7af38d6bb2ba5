import { readdirSync } from 'node:fs';
import path from 'node:path';
import { isLanguage, pickLanguage, type TLanguage } from '@mirra/contracts';

/** Where the web build writes its prerendered landing pages: `<language>/<address>index.html`. */
export const PRERENDERED_DIR = 'prerendered';

/** The prerendered pages of a built web app: each address and the languages it was rendered in. */
export type PrerenderedPages = ReadonlyMap<string, ReadonlySet<TLanguage>>;

export function findPrerenderedPages(webRoot: string): PrerenderedPages {
  const pages = new Map<string, Set<TLanguage>>();
  let files: string[];
  try {
    files = readdirSync(path.join(webRoot, PRERENDERED_DIR), { recursive: true, encoding: 'utf8' });
  } catch {
    return pages;
  }
  for (const file of files) {
    const [language, ...rest] = file.split(path.sep);
    if (!isLanguage(language) || rest.at(-1) !== 'index.html') continue;
    const address = `/${rest
      .slice(0, -1)
      .map((part) => `${part}/`)
      .join('')}`;
    const languages = pages.get(address) ?? new Set<TLanguage>();
    languages.add(language);
    pages.set(address, languages);
  }
  return pages;
}

/**
 * The file (relative to the web root) to answer an address with: its prerendered page in the
 * language the app itself would pick from Accept-Language, else index.html (the loading mark).
 */
export function pageFileFor(
  pages: PrerenderedPages,
  address: string,
  acceptLanguage: string | undefined,
): string {
  const language = pickLanguage(acceptLanguage);
  if (!pages.get(address)?.has(language)) return 'index.html';
  return [PRERENDERED_DIR, language, ...address.split('/').filter(Boolean), 'index.html'].join('/');
}
