import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TConsentLink } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { IconCheck } from '../../../components/ui/icons';
import type { TModel } from '../../../lib/api-types';
import { formatDay } from '../../../lib/dates';
import { describeError } from '../../../lib/error-messages';
import { useQrCode } from '../../../lib/use-qr-code';
import { useShareLink } from '../../../lib/use-share-link';
import { modelKeys, modelsApi } from '../api/models.api';
import '../models.css';

/**
 * A model of someone else waits for that person: the owner gets a signed link (with its QR code)
 * to send them, and reads the model again once they say they have confirmed. Confirmed, it says so.
 */
export function ConsentLinkPanel({ model }: { model: TModel }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const share = useShareLink();
  const [link, setLink] = useState<TConsentLink | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const qr = useQrCode(link?.url ?? null);

  if (model.consent === 'confirmed') {
    return (
      <p className="consent-panel__done" data-testid="consent-confirmed">
        <IconCheck size={18} />
        {t('consent.confirmedOwner')}
      </p>
    );
  }

  async function makeLink() {
    setPending(true);
    setError(null);
    try {
      setLink(await modelsApi.consentLink(model.uuid));
    } catch (failure) {
      setError(describeError(t, failure).alert ?? t('errors.network'));
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="stack consent-panel" data-testid="consent-panel">
      <p>{t('consent.waiting')}</p>
      {error && <Alert>{error}</Alert>}
      {link ? (
        <>
          {qr && (
            <img
              className="live-check__qr"
              src={qr}
              width={180}
              height={180}
              alt={t('consent.qrAlt')}
              data-testid="consent-qr"
            />
          )}
          <a className="live-check__link" href={link.url} data-testid="consent-link">
            {link.url}
          </a>
          <p className="muted-note">
            {t('consent.linkValid', { date: formatDay(link.expires_at, i18n.language) })}
          </p>
          <Button
            theme="primary"
            size="lg"
            block
            onClick={() => void share(link.url, t('consent.shareTitle'))}
            data-testid="consent-share"
          >
            {t('consent.share')}
          </Button>
          <Button
            theme="light"
            size="lg"
            block
            onClick={() => void queryClient.invalidateQueries({ queryKey: modelKeys.one(model.uuid) })}
            data-testid="consent-refresh"
          >
            {t('consent.refresh')}
          </Button>
        </>
      ) : (
        <Button
          theme="primary"
          size="lg"
          block
          loading={pending}
          onClick={() => void makeLink()}
          data-testid="consent-make-link"
        >
          {t('consent.makeLink')}
        </Button>
      )}
    </div>
  );
}
