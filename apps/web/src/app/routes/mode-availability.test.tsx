import { cleanup, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestI18n } from '../../test/i18n';
import { renderWithPublicConfig } from '../../test/public-config';
import { Page as Create } from './create';
import { Page as Generate } from './generate';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(cleanup);

function renderWithConfig(path: string, unavailable: string[]) {
  return renderWithPublicConfig(
    <Routes>
      <Route path="/create/" element={<Create />} />
      <Route path="/generate/:mode/" element={<Generate />} />
    </Routes>,
    { path, i18n, config: { unavailable_modes: unavailable } },
  );
}

describe('modes no engine can make', () => {
  it('are not offered on the create screen', async () => {
    renderWithConfig('/create/', ['editing']);
    await screen.findByTestId('mode-simple');
    expect(screen.queryByTestId('mode-editing')).toBeNull();
    expect(screen.getByTestId('mode-styling')).toBeTruthy();
  });

  it('open a plain message instead of a form with a price', async () => {
    renderWithConfig('/generate/video/', ['video']);
    expect((await screen.findByTestId('mode-unavailable')).textContent).toContain(
      'This mode is not available right now',
    );
    expect(screen.queryByTestId('generate-submit')).toBeNull();
  });
});
