import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { GenerationStatus } from '@mirra/contracts';
import type { TGeneration } from '../../../lib/api-types';
import { createTestI18n } from '../../../test/i18n';
import { TrainingProgress } from '../../models/components/training-dialog';
import { GenerationProgress } from './generation-progress';

const running = (progress: number) =>
  ({ uuid: 'g', mode: 'simple', status: GenerationStatus.IN_PROGRESS, progress }) as unknown as TGeneration;

async function show(language: 'de' | 'ru' | 'en', progress: number) {
  const i18n = await createTestI18n(language);
  render(
    <I18nextProvider i18n={i18n}>
      <GenerationProgress generation={running(progress)} isPolling={false} />
    </I18nextProvider>,
  );
  return screen.getByTestId('generation-progress');
}

afterEach(cleanup);

describe('the progress screen', () => {
  it('shows the percentage once, written the language’s way', async () => {
    const wait = await show('de', 42);
    expect(wait.textContent?.match(/42/g)).toHaveLength(1);
    expect(screen.getByTestId('generation-percent').textContent).toBe('42\u00a0%');
    expect(wait.textContent).toContain('Wird generiert…');
  });

  it('shows the percentage once in Russian and English too', async () => {
    const ru = await show('ru', 57);
    expect(ru.textContent?.match(/57/g)).toHaveLength(1);
    expect(screen.getByTestId('generation-percent').textContent).toBe('57\u00a0%');
    cleanup();
    const en = await show('en', 8);
    expect(en.textContent?.match(/8%/g)).toHaveLength(1);
  });

  it('the training bar of a model shows its percentage once too', async () => {
    const i18n = await createTestI18n('de');
    render(
      <I18nextProvider i18n={i18n}>
        <TrainingProgress percent={64} isQueued={false} />
      </I18nextProvider>,
    );
    const wait = screen.getByTestId('training-progress');
    expect(wait.textContent?.match(/64/g)).toHaveLength(1);
    expect(screen.getByTestId('training-percent').textContent).toBe('64\u00a0%');
  });
});
