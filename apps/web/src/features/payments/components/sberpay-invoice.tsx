import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { PageFrame } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { paymentKeys, paymentsApi } from '../api/payments.api';
import { formatMoney } from '../money';

/**
 * Where SberPay sends the buyer back: the invoice's live state, looked up again every two seconds
 * until it is paid, declined or cancelled, then the way back to where the purchase started.
 */
export function SberPayInvoice({
  invoiceId,
  invoiceKey,
  missing,
}: {
  invoiceId: string;
  /** The page's key from its address: the invoice's uuid alone opens nothing. */
  invoiceKey: string;
  missing: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const invoice = useQuery({
    queryKey: paymentKeys.invoice(invoiceId),
    queryFn: () => paymentsApi.invoice(invoiceId, invoiceKey),
    retry: false,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 2000 : false),
  });
  if (invoice.isPending) return <Spinner />;
  if (invoice.isError) {
    const status = (invoice.error as { status?: number }).status;
    return status === 404 || status === 400 ? missing : <LoadError query={invoice} />;
  }
  const { status, amount, currency, held, return_path: back } = invoice.data;
  // A trial's card check charges nothing: what the card sees is the hold, given back at once.
  const isCardCheck = held > 0;
  return (
    <PageFrame width="narrow" testId="sberpay-page" className="page--center">
      <div className="stack sberpay" data-testid="sberpay-invoice" data-status={status}>
        <h2>{t('sberpay.title')}</h2>
        <div className="balance-card">
          <span className="balance-card__label">{t(isCardCheck ? 'sberpay.held' : 'sberpay.amount')}</span>
          <span className="balance-card__value" data-testid="sberpay-amount">
            {formatMoney(isCardCheck ? held : amount, currency, i18n.language)}
          </span>
        </div>
        {isCardCheck && (
          <p data-testid="sberpay-held">
            {t('sberpay.heldNote', { amount: formatMoney(held, currency, i18n.language) })}
          </p>
        )}
        <p className="lead" data-testid="sberpay-status">
          {t(`payments.result.${status}`)}
        </p>
        {status === 'pending' ? (
          <div className="stack" role="status">
            <Spinner />
            <p>{t('sberpay.waiting')}</p>
          </div>
        ) : (
          <>
            <p data-testid="sberpay-text">{t(`payments.resultText.${status}`)}</p>
            <ButtonLink to={back} theme="primary" data-testid="sberpay-continue">
              {t('sberpay.continue')}
            </ButtonLink>
          </>
        )}
      </div>
    </PageFrame>
  );
}
