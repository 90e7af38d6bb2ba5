import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TConsent } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { IconCheck, IconFace } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { PageFrame, PageHeading } from '../../../components/ui/page';
import { Sheet } from '../../../components/ui/sheet';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-error';
import { formatDay } from '../../../lib/dates';
import { describeError } from '../../../lib/error-messages';
import { consentKeys, consentsApi } from '../api/models.api';
import { LiveCheckSheet } from './live-check-sheet';
import '../models.css';

/**
 * The consent page (/consent/<token>/), for the person a model of someone else is of, with no
 * account: who asks and what for, the photos' cover, and the same live check the owner would
 * take of themselves; confirmed, the same page (the link they keep) withdraws, for good. Before
 * confirming they can also refuse, which deletes the model at once.
 */
export function ConsentPage({ token }: { token: string }) {
  const { t } = useTranslation();
  const consent = useQuery({ queryKey: consentKeys.one(token), queryFn: () => consentsApi.get(token) });
  return (
    <PageFrame width="narrow" testId="consent-page">
      {consent.data ? (
        <ConsentView token={token} consent={consent.data} />
      ) : consent.error instanceof ApiError && consent.error.status < 500 ? (
        <>
          <PageHeading title={t('consent.missingTitle')} />
          <p data-testid="consent-missing">{t('consent.missingText')}</p>
        </>
      ) : consent.isError ? (
        <LoadError query={consent} />
      ) : (
        <div className="center">
          <Spinner size={28} label={t('common.loading')} />
        </div>
      )}
    </PageFrame>
  );
}

function ConsentView({ token, consent }: { token: string; consent: TConsent }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [isChecking, setChecking] = useState(false);
  const [isWithdrawing, setWithdrawing] = useState(false);
  const owner = consent.owner_name || t('consent.someone');
  const day = (iso: string | null) => (iso ? formatDay(iso, i18n.language) : '');
  const canConfirm = consent.status === 'pending' && !consent.is_expired;
  const canWithdraw = consent.status === 'pending' || consent.status === 'confirmed';

  return (
    <div className="stack consent-view" data-testid="consent-view" data-status={consent.status}>
      <PageHeading title={t('consent.title', { name: owner })} />
      <div className="model-head model-head--compact">
        {consent.cover_url ? (
          <img src={consent.cover_url} alt="" className="model-head__cover" width={72} height={72} />
        ) : (
          <span className="model-head__cover model-head__cover--empty">
            <IconFace size={30} />
          </span>
        )}
        <div className="model-head__text">
          <span className="model-head__name" data-testid="consent-model-name">
            {consent.model_name}
          </span>
          {canWithdraw && (
            <span className="model-head__meta">{t('consent.photos', { count: consent.photo_count })}</span>
          )}
        </div>
      </div>

      {consent.status === 'pending' && (
        <>
          <p className="lead" data-testid="consent-ask">
            {t('consent.ask', { name: owner })}
          </p>
          <ul className="consent-view__points">
            <li>{t('consent.pointCheck')}</li>
            <li>{t('consent.pointPrivacy')}</li>
            <li>{t('consent.pointWithdraw')}</li>
          </ul>
          {consent.is_expired ? (
            <Alert tone="info">{t('consent.expired', { name: owner })}</Alert>
          ) : (
            <Button
              theme="primary"
              size="lg"
              block
              onClick={() => setChecking(true)}
              data-testid="consent-confirm"
            >
              {t('consent.confirm')}
            </Button>
          )}
        </>
      )}
      {consent.status === 'confirmed' && (
        <>
          <p className="consent-panel__done" data-testid="consent-done">
            <IconCheck size={18} />
            {t('consent.confirmedOn', { date: day(consent.confirmed_at) })}
          </p>
          <p>{t('consent.keepLink')}</p>
        </>
      )}
      {consent.status === 'withdrawn' && (
        <Alert tone="info">{t('consent.withdrawnOn', { date: day(consent.withdrawn_at) })}</Alert>
      )}
      {consent.status === 'closed' && <Alert tone="info">{t('consent.closed')}</Alert>}

      {canWithdraw && (
        <Button
          theme="light"
          size="lg"
          block
          onClick={() => setWithdrawing(true)}
          data-testid="consent-withdraw"
        >
          {consent.status === 'pending' ? t('consent.refuse') : t('consent.withdraw')}
        </Button>
      )}

      {canConfirm && (
        <LiveCheckSheet
          modelUuid=""
          open={isChecking}
          onClose={() => setChecking(false)}
          onPassed={() => setChecking(false)}
          send={async (frames) => {
            const result = await consentsApi.liveCheck(token, frames);
            queryClient.setQueryData(consentKeys.one(token), result.consent);
            return result;
          }}
          phoneLink={window.location.href}
          phoneNote={t('consent.phone')}
        />
      )}
      <WithdrawSheet
        token={token}
        isRefusal={consent.status === 'pending'}
        open={isWithdrawing}
        onClose={() => setWithdrawing(false)}
      />
    </div>
  );
}

/** Withdrawing is final: said before it is done. */
function WithdrawSheet({
  token,
  isRefusal,
  open,
  onClose,
}: {
  token: string;
  isRefusal: boolean;
  open: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function withdraw() {
    setPending(true);
    setError(null);
    try {
      queryClient.setQueryData(consentKeys.one(token), await consentsApi.withdraw(token));
      onClose();
    } catch (failure) {
      setError(describeError(t, failure).alert ?? t('errors.network'));
    } finally {
      setPending(false);
    }
  }

  return (
    <Sheet
      open={open}
      onClose={onClose}
      title={isRefusal ? t('consent.refuseTitle') : t('consent.withdrawTitle')}
    >
      <div className="stack" data-testid="consent-withdraw-sheet">
        <p className="lead">{t('consent.withdrawText')}</p>
        {error && <Alert>{error}</Alert>}
        <Button
          theme="danger"
          size="lg"
          block
          loading={pending}
          onClick={() => void withdraw()}
          data-testid="consent-withdraw-confirm"
        >
          {isRefusal ? t('consent.refuseConfirm') : t('consent.withdrawConfirm')}
        </Button>
        <Button theme="light" size="lg" block onClick={onClose}>
          {t('model.cancel')}
        </Button>
      </div>
    </Sheet>
  );
}
