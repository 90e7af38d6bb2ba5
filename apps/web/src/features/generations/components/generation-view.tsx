import { useTranslation } from 'react-i18next';
import type { TGeneration } from '../../../lib/api-types';
import { describeEngineNote } from '../engine-notes';
import { phaseOf } from '../generation-status';
import { GenerationFailure } from './generation-failure';
import { GenerationProgress } from './generation-progress';
import { ResultActions } from './result-actions';
import { AiMarked } from '../../provenance';
import { ResultImage } from './result-image';
import { GenerationSet } from './generation-set';
import { formatDateTime } from '../../../lib/dates';
import '../generations.css';

/** The result screen's body for one generation, whatever its status. */
export function GenerationView({ generation, isPolling }: { generation: TGeneration; isPolling: boolean }) {
  const { t, i18n } = useTranslation();
  const phase = phaseOf(generation.status);
  const result = phase === 'completed' ? generation.result : null;
  const title =
    phase === 'failed' ? t('result.failedHeading') : result ? t('result.title') : t('result.waitingTitle');
  const created = formatDateTime(generation.created_at, i18n.language);
  return (
    <article className="result" data-testid="generation-view" data-status={generation.status}>
      <header className="result__head">
        <h1 className="result__title">{title}</h1>
        <p className="result__meta">
          {t(`modes.${generation.mode}.title`)} · {t('messages.credits', { count: generation.cost })} ·{' '}
          {created}
        </p>
      </header>

      <GenerationSet generation={generation} />

      {phase === 'failed' ? (
        <GenerationFailure generation={generation} />
      ) : result ? (
        <>
          <AiMarked>
            <ResultImage result={result} alt={generation.prompt || t(`modes.${generation.mode}.title`)} />
          </AiMarked>
          <ResultActions generation={generation} result={result} />
          {result.notes.length > 0 && (
            <section className="result-notes" data-testid="result-notes">
              <h2 className="result-notes__title">{t('result.notes')}</h2>
              <ul>
                {result.notes.map((note, index) => (
                  <li key={index}>{describeEngineNote(t, note)}</li>
                ))}
              </ul>
            </section>
          )}
        </>
      ) : (
        <GenerationProgress generation={generation} isPolling={isPolling} />
      )}

      {generation.prompt && (
        <section className="result-prompt">
          <h2 className="result-prompt__title">{t('generate.prompt')}</h2>
          <p className="result-prompt__text" data-testid="result-prompt">
            {generation.prompt}
          </p>
        </section>
      )}
    </article>
  );
}
