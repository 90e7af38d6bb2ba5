import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Sheet } from '../../../components/ui/sheet';
import { creditKeys } from '../api/credits.api';
import { useCreditBalance } from '../hooks/use-credit-balance';
import { paymentKeys, paymentsApi, subscriptionKeys, walletKeys } from '../../payments';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Back from a checkout (`?payment=<order>` on the page the purchase started from): how the payment
 * went and the balance now. Closing it drops the marker from the address.
 */
export function PaymentReturn() {
  const { t } = useTranslation();
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
  const balance = useCreditBalance({ enabled: status === 'paid' });

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
        {status === 'paid' && (
          <div className="balance-card">
            <span className="balance-card__label">{t('credits.balance')}</span>
            <span className="balance-card__value" data-testid="payment-result-balance">
              {balance.data?.balance ?? '—'}
            </span>
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
