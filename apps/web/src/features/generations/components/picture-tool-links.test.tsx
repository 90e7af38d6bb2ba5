import { cleanup, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../test/i18n';
import { renderWithPublicConfig } from '../../../test/public-config';
import { PictureToolLinks } from './picture-tool-links';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('ru');
});
afterEach(cleanup);

describe('the picture tools offered on a picture', () => {
  it('start each tool an engine serves with the picture as its photo, and offer none that cannot run', () => {
    renderWithPublicConfig(<PictureToolLinks from="post/abc" testIdPrefix="post" />, {
      path: '/post/abc/',
      i18n,
      config: { unavailable_modes: ['try_on', 'restore'] },
    });
    const links = screen.getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/generate/upscale/post/abc/',
      '/generate/background/post/abc/',
      '/generate/inpaint/post/abc/',
      '/generate/outpaint/post/abc/',
    ]);
    // Named in the person's language.
    expect(screen.getByTestId('post-tool-upscale').textContent).toBe('Увеличение');
    expect(screen.queryByTestId('post-tool-try_on')).toBeNull();
    // A published picture is not made to speak.
    expect(screen.queryByTestId('post-tool-talking_photo')).toBeNull();
  });

  it('offer my own result the talking photo too', () => {
    renderWithPublicConfig(<PictureToolLinks from="generation/abc" testIdPrefix="result" />, {
      path: '/generation/abc/',
      i18n,
      config: { unavailable_modes: [] },
    });
    expect(screen.getByTestId('result-tool-talking_photo').getAttribute('href')).toBe(
      '/generate/talking_photo/generation/abc/',
    );
  });
});
