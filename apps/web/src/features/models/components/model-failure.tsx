import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { trainingErrorKey } from '../model-status';

/**
 * A failed training: the reason in the user's language, and that its credits came back (the
 * server refunds every failed training; the known reasons say so themselves).
 */
export function ModelFailure({
  errorCode,
  errorDetail,
}: {
  errorCode: string | null;
  errorDetail: string | null;
}) {
  const { t } = useTranslation();
  const key = trainingErrorKey(errorCode);
  return (
    <div data-testid="model-failure">
      <Alert>
        <strong>{t('model.failedTitle')}</strong>
        <br />
        {key ? (
          t(key)
        ) : (
          <>
            {errorDetail ? `${errorDetail} ` : ''}
            {t('model.refundedNote')}
          </>
        )}
      </Alert>
    </div>
  );
}
