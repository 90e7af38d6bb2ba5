import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TGeneration } from '../../../lib/api-types';
import { phaseOf, progressPercent } from '../generation-status';
import { ProgressBar } from '../../../components/ui/progress-bar';

/** Waiting for a result: what is happening, a live bar, and that the page may be closed. */
export function GenerationProgress({
  generation,
  isPolling,
}: {
  generation: TGeneration;
  isPolling: boolean;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(0);
  const percent = progressPercent(generation.status, generation.progress, shown);
  // The bar never moves backwards (a retry puts the generation back in the queue).
  if (percent !== shown) setShown(percent);
  const phase = phaseOf(generation.status);
  const label =
    phase === 'queued'
      ? t('result.queued')
      : phase === 'completed'
        ? t('result.finishing')
        : t('result.running', { percent });
  return (
    <div className="result-wait" data-testid="generation-progress">
      <div className="result-wait__art" aria-hidden="true">
        <span className="result-wait__orb" />
      </div>
      <div className="result-wait__status">
        <span aria-live="polite">{label}</span>
        <span className="result-wait__percent">{percent}%</span>
      </div>
      <ProgressBar
        value={percent}
        label={t('result.progressLabel')}
        size="lg"
        testId="generation-progressbar"
      />
      <p className="result-wait__note">{t('result.waitingNote')}</p>
      {isPolling && <p className="muted-note">{t('result.polling')}</p>}
    </div>
  );
}
