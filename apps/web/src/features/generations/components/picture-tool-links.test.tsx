import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../test/i18n';
import { renderWithPublicConfig } from '../../../test/public-config';
import { PictureToolLinks, PictureToolsMenu } from './picture-tool-links';

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

  it('wait behind one Tools button: the sheet it opens lists them, with what the page adds before and after', () => {
    renderWithPublicConfig(
      <PictureToolsMenu from="generation/abc" testIdPrefix="result" leading={<a href="/face">Face swap</a>}>
        <button type="button">Repeat</button>
      </PictureToolsMenu>,
      { path: '/generation/abc/', i18n, config: { unavailable_modes: [] } },
    );
    expect(screen.queryByTestId('result-tool-upscale')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    const open = screen.getByTestId('result-tools');
    expect(open.textContent).toBe('Инструменты');
    expect(open.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(open);
    const sheet = screen.getByRole('dialog', { name: 'Инструменты для фото' });
    expect(within(sheet).getByTestId('result-tool-upscale').getAttribute('href')).toBe(
      '/generate/upscale/generation/abc/',
    );
    // The page's own actions in the sheet: one before the tools, the rest in a section of their own.
    const grid = within(sheet).getByTestId('result-tools-sheet');
    expect(grid.firstElementChild?.textContent).toBe('Face swap');
    expect(within(sheet).getByRole('region', { name: 'Ещё' }).textContent).toContain('Repeat');
  });

  it('offer no Tools button where no tool can run', () => {
    renderWithPublicConfig(<PictureToolsMenu from="post/abc" testIdPrefix="post" />, {
      path: '/post/abc/',
      i18n,
      config: { unavailable_modes: ['upscale', 'restore', 'background', 'inpaint', 'outpaint', 'try_on'] },
    });
    expect(screen.queryByTestId('post-tools')).toBeNull();
  });
});
