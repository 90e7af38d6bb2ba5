import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TGeneration } from '../../../lib/api-types';
import { phaseOf, progressPercent } from '../generation-status';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { numberFormat } from '../../../lib/locale-fallback';
import '../generations.css';

/** Waiting for a result: what is happening, a live bar, and that the page may be closed. */
export function GenerationProgress({
  generation,
  isPolling,
}: {
  generation: TGeneration;
  isPolling: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [shown, setShown] = useState(0);
  const percent = progressPercent(generation.status, generation.progress, shown);
  // The bar never moves backwards (a retry puts the generation back in the queue).
  if (percent !== shown) setShown(percent);
  const phase = phaseOf(generation.status);
  // A provider holding the job in its queue: the user's place in it (0 = next → place 1).
  const queuePosition = generation.queue_position ?? null;
  const label =
    queuePosition !== null && phase !== 'completed'
      ? t('result.providerQueue', { position: queuePosition + 1 })
      : phase === 'queued'
        ? t('result.queued')
        : phase === 'completed'
          ? t('result.finishing')
          : t('result.running');
  // The percentage is shown once, beside the phase, written the language's way ("42 %" in German).
  const percentText = numberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }).format(
    percent / 100,
  );
  return (
    <div className="result-wait" data-testid="generation-progress">
      <div className="result-wait__art" aria-hidden="true">
        <span className="result-wait__orb" />
      </div>
      <div className="result-wait__status">
        <span aria-live="polite" data-testid="generation-phase">
          {label}
        </span>
        <span className="result-wait__percent" data-testid="generation-percent">
          {percentText}
        </span>
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
