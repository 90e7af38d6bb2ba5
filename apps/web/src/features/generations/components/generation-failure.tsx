import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/ui/button';
import { IconAlert } from '../../../components/ui/icons';
import type { TGeneration } from '../../../lib/api-types';
import { failureKey } from '../generation-status';

/** What went wrong, in the user's language, and that the credits came back. */
export function GenerationFailure({ generation }: { generation: TGeneration }) {
  const { t } = useTranslation();
  const headline = t(failureKey(generation.error_code));
  const isModeration = generation.error_code === 'generations.result_moderated';
  // The engine's own words add what the headline cannot (e.g. which instruction it did not get).
  const detail =
    !isModeration && generation.error_detail && generation.error_detail !== headline
      ? generation.error_detail
      : null;
  return (
    <div className="result-failure" role="alert" data-testid="generation-failure">
      <span className="result-failure__icon">
        <IconAlert size={28} />
      </span>
      <h2 className="result-failure__title" data-testid="failure-title">
        {headline}
      </h2>
      {detail && <p className="result-failure__detail">{detail}</p>}
      {generation.refunded && !isModeration && (
        <p className="result-failure__refund" data-testid="failure-refund">
          {t('result.refunded', { count: generation.cost })}
        </p>
      )}
      <ButtonLink to={`/generate/${generation.mode}/`} theme="primary">
        {t('result.tryAgain')}
      </ButtonLink>
    </div>
  );
}
