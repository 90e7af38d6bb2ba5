import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button, ButtonLink } from '../../../components/ui/button';
import { IconAlert } from '../../../components/ui/icons';
import type { TGeneration } from '../../../lib/api-types';
import { describeFailure } from '../generation-status';
import '../generations.css';

/** Marks a result screen opened from the generate form, whose inputs are one step back. */
export interface FromFormState {
  fromForm: true;
}

/** What went wrong, in the user's language, and that the credits came back. */
export function GenerationFailure({ generation }: { generation: TGeneration }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const failure = describeFailure(generation.error_code, generation.error_reason);
  const isModeration = generation.error_code === 'generations.result_moderated';
  const detail = failure.reasonKey
    ? t(failure.reasonKey)
    : failure.showDetail
      ? generation.error_detail
      : null;
  // Straight from the form: going back keeps the photo and the description to change them.
  const fromForm = (location.state as FromFormState | null)?.fromForm === true;
  return (
    <div className="result-failure" role="alert" data-testid="generation-failure">
      <span className="result-failure__icon">
        <IconAlert size={28} />
      </span>
      <h2 className="result-failure__title" data-testid="failure-title">
        {t(failure.key)}
      </h2>
      {detail && (
        <p className="result-failure__detail" data-testid="failure-detail">
          {detail}
        </p>
      )}
      {generation.refunded && !isModeration && (
        <p className="result-failure__refund" data-testid="failure-refund">
          {t('result.refunded', { count: generation.cost })}
        </p>
      )}
      {fromForm ? (
        <Button theme="primary" onClick={() => void navigate(-1)} data-testid="failure-retry">
          {t('result.tryAgain')}
        </Button>
      ) : (
        // Opened any other way: the form opens again with this generation's photo, prompt and settings.
        <ButtonLink
          to={`/generate/${generation.mode}/generation/${generation.uuid}/`}
          theme="primary"
          data-testid="failure-retry"
        >
          {t('result.tryAgain')}
        </ButtonLink>
      )}
    </div>
  );
}
