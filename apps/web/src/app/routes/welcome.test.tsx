import { cleanup, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestI18n } from '../../test/i18n';
import { renderWithPublicConfig } from '../../test/public-config';
import { Page as Welcome } from './welcome';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(cleanup);

function renderWelcome(ai: boolean | 'loading') {
  const config = ai === 'loading' ? null : { engines: { simple: { engine: ai ? 'fal' : 'local', ai } } };
  return renderWithPublicConfig(<Welcome />, { path: '/welcome/', i18n, config });
}

describe('the onboarding', () => {
  it('promises an AI studio only where an AI engine serves', () => {
    renderWelcome(true);
    expect(screen.getByRole('heading').textContent).toBe('Your AI photo studio');
  });

  it('says pictures are made offline, not by AI, on a server that draws them itself or before it has said', () => {
    for (const ai of [false, 'loading'] as const) {
      renderWelcome(ai);
      const page = screen.getByTestId('welcome-page').textContent ?? '';
      expect(page).not.toMatch(/\bAI photo studio\b/);
      expect(page).toContain('not by an AI model');
      cleanup();
    }
  });
});
