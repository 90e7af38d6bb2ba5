import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestI18n } from '../../test/i18n';
import { makePost } from '../../test/posts';
import { PostGrid } from '../posts/components/post-grid';

afterEach(cleanup);

describe('the AI mark on posts', () => {
  for (const [language, label, title] of [
    ['en', 'AI', 'Made with AI'],
    ['de', 'KI', 'Mit KI erstellt'],
  ] as const) {
    it(`${language}: every post card in the feed wears it, its full wording readable`, async () => {
      const i18n = await createTestI18n(language);
      const posts = Array.from({ length: 3 }, (_, n) => makePost(n + 1));
      render(
        <I18nextProvider i18n={i18n}>
          <MemoryRouter>
            <PostGrid posts={posts} />
          </MemoryRouter>
        </I18nextProvider>,
      );
      const marks = screen.getAllByTestId('ai-mark');
      expect(marks).toHaveLength(posts.length);
      for (const mark of marks) {
        expect(mark.getAttribute('title')).toBe(title);
        expect(mark.textContent).toBe(`${label}${title}`);
      }
    });
  }
});
