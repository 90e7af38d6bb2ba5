import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { i18n as I18n } from 'i18next';
import { createTestI18n } from '../../../test/i18n';
import { makePost } from '../../../test/posts';
import { PostGrid } from './post-grid';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(cleanup);

describe('PostGrid', () => {
  it('loads the first screen (the top two pictures of each column) at once and first, and every other one lazily', () => {
    const posts = Array.from({ length: 12 }, (_, n) => makePost(n + 1));
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <PostGrid posts={posts} />
        </MemoryRouter>
      </I18nextProvider>,
    );
    const columns = screen.getByTestId('post-grid').querySelectorAll('.post-grid__column');
    expect(columns.length).toBeGreaterThanOrEqual(2);
    for (const column of columns) {
      const images = [...column.querySelectorAll('img')];
      expect(images.length).toBeGreaterThan(2);
      const [top, second, ...rest] = images;
      for (const image of [top!, second!]) {
        expect(image.getAttribute('loading')).toBe('eager');
        expect(image.getAttribute('fetchpriority')).toBe('high');
      }
      for (const image of rest) {
        expect(image.getAttribute('loading')).toBe('lazy');
        expect(image.getAttribute('fetchpriority')).toBeNull();
      }
    }
  });
});
