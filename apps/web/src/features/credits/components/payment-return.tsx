import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Sheet } from '../../../components/ui/sheet';
import { creditKeys } from '../api/credits.api';
import { useCreditBalance } from '../hooks/use-credit-balance';
import { formatDay } from '../../../lib/dates';
import {
  formatMoney,
  paymentKeys,
  paymentsApi,
  subscriptionKeys,
  walletApi,
  walletKeys,
} from '../../payments';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Back from a checkout (`?payment=<order>` on the page the purchase started from): how the payment
 * went and the balance now. Closing it drops the marker from the address.
 */
export function PaymentReturn() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const uuid = params.get('payment');
  const valid = uuid !== null && UUID.test(uuid);
  // Back through the checkout's cancel link: the checkout is closed first (a tab left open on it
  // can no longer pay), and the order answers as it then stands.
  const cancelled = params.get('payment_cancelled') === '1';
  const order = useQuery({
    queryKey: paymentKeys.order(uuid ?? ''),
    queryFn: async () => {
      const current = cancelled ? await paymentsApi.cancelOrder(uuid!) : await paymentsApi.order(uuid!);
      if (cancelled) setParams(withoutCancelMarker, { replace: true });
      return current;
    },
    enabled: valid,
    retry: false,
    // A provider may confirm a moment after the return: look again until the order settles.
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 2000 : false),
  });
  const status = order.data?.status;
  useEffect(() => {
    if (status && status !== 'pending') {
      for (const queryKey of [creditKeys.all, walletKeys.all, subscriptionKeys.all]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    }
  }, [status, queryClient]);
  // A top-up adds wallet money, not credits: the sheet shows the balance the payment went to.
  const isTopUp = order.data?.purpose === 'wallet_topup';
  const balance = useCreditBalance({ enabled: status === 'paid' && !isTopUp });
  const wallet = useQuery({
    queryKey: walletKeys.balances(),
    queryFn: walletApi.balances,
    enabled: status === 'paid' && isTopUp,
  });
  const walletAvailable = wallet.data?.balances.find((b) => b.currency === order.data?.currency)?.available;
  const unlimitedUntil = (order.data?.unlimited_days ?? 0) > 0 ? balance.data?.unlimited_until : null;

  const close = () =>
    setParams(
      (current) => {
        const next = withoutCancelMarker(current);
        next.delete('payment');
        return next;
      },
      { replace: true },
    );

  return (
    <Sheet
      open={valid && Boolean(status)}
      onClose={close}
      title={status ? t(`payments.result.${status}`) : ''}
    >
      <div className="stack" data-testid="payment-result" data-status={status}>
        {status === 'paid' && isTopUp && (
          <div className="balance-card" data-kind="wallet">
            <span className="balance-card__label">{t('payments.balanceWallet')}</span>
            <span className="balance-card__value" data-testid="payment-result-balance">
              {walletAvailable === undefined
                ? '—'
                : formatMoney(walletAvailable, order.data!.currency, i18n.language)}
            </span>
          </div>
        )}
        {status === 'paid' && !isTopUp && (
          <div className="balance-card" data-kind="credits">
            <span className="balance-card__label">{t('payments.balanceCredits')}</span>
            <span className="balance-card__value" data-testid="payment-result-balance">
              {balance.data?.balance ?? '—'}
            </span>
            {unlimitedUntil && (
              <span className="balance-card__label" data-testid="payment-result-unlimited">
                {t('payments.unlimitedUntil', { date: formatDay(unlimitedUntil, i18n.language) })}
              </span>
            )}
          </div>
        )}
        <p className="lead" data-testid="payment-result-text">
          {t(`payments.resultText.${status ?? 'pending'}`)}
        </p>
      </div>
    </Sheet>
  );
}

function withoutCancelMarker(current: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(current);
  next.delete('payment_cancelled');
  return next;
}
