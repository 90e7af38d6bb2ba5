import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TAdminPaymentOrder } from '@mirra/contracts';
import { LoadError } from '../../../components/ui/load-error';
import { Section } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { useAppStore } from '../../../lib/app-store';
import { formatDateTime } from '../../../lib/dates';
import { formatMoney } from '../../payments';
import { adminApi, adminKeys } from '../api/admin.api';
import { ReasonActions } from './reason-actions';

/** A person's orders (with a refund through the provider), wallet and premium subscription. */
export function UserMoney({ uuid }: { uuid: string }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const money = useQuery({ queryKey: adminKeys.money(uuid), queryFn: () => adminApi.userMoney(uuid) });
  if (money.isPending) return <Spinner size={28} />;
  if (money.isError) return <LoadError query={money} />;
  const language = i18n.language;
  const when = (iso: string | null) => (iso ? formatDateTime(iso, language) : '—');
  const { orders, wallet, subscription } = money.data;
  const held = wallet.balances.filter(
    (balance) => balance.available || balance.frozen || balance.pending || balance.reserved,
  );
  return (
    <>
      <Section title={t('admin.money.orders')}>
        {orders.length === 0 && <p className="admin__meta">{t('admin.money.noOrders')}</p>}
        <ul className="admin__list" data-testid="admin-orders">
          {orders.map((order) => (
            <Order
              key={order.uuid}
              order={order}
              when={when}
              onRefunded={() => {
                void client.invalidateQueries({ queryKey: adminKeys.money(uuid) });
                void client.invalidateQueries({ queryKey: adminKeys.user(uuid) });
              }}
            />
          ))}
        </ul>
      </Section>

      <Section title={t('admin.money.wallet')}>
        <div className="admin__card" data-testid="admin-wallet">
          {held.length === 0 && <p className="admin__meta">{t('admin.money.walletEmpty')}</p>}
          {held.map((balance) => (
            <dl key={balance.currency} className="admin__dl">
              <dt>{t('admin.money.available')}</dt>
              <dd>{formatMoney(balance.available, balance.currency, language)}</dd>
              <dt>{t('admin.money.frozen')}</dt>
              <dd>{formatMoney(balance.frozen, balance.currency, language)}</dd>
              <dt>{t('admin.money.pending')}</dt>
              <dd>{formatMoney(balance.pending, balance.currency, language)}</dd>
              <dt>{t('admin.money.reserved')}</dt>
              <dd>{formatMoney(balance.reserved, balance.currency, language)}</dd>
            </dl>
          ))}
        </div>
        {wallet.entries.length > 0 && (
          <ul className="admin__list" data-testid="admin-wallet-entries">
            {wallet.entries.map((entry) => (
              <li key={entry.id} className="admin__ledger-row">
                <span>
                  {t(`wallet.kinds.${entry.kind}`)} ·{' '}
                  {t(`wallet.statuses.${entry.frozen ? 'frozen' : entry.status}`)}
                  <span className="admin__meta">{when(entry.created_at)}</span>
                </span>
                <span className={entry.amount < 0 ? 'admin__minus' : 'admin__plus'}>
                  {entry.amount > 0 ? '+' : ''}
                  {formatMoney(entry.amount, entry.currency, language)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title={t('admin.money.subscription')}>
        {subscription ? (
          <dl className="admin__dl admin__card" data-testid="admin-subscription">
            <dt>{t('admin.money.plan')}</dt>
            <dd>
              {subscription.plan} · {subscription.status}
            </dd>
            <dt>{t('admin.money.price')}</dt>
            <dd>
              {formatMoney(subscription.amount, subscription.currency, language)} ·{' '}
              {t('admin.money.everyDays', { count: subscription.period_days })}
            </dd>
            <dt>{t('admin.money.accessUntil')}</dt>
            <dd>{when(subscription.access_until)}</dd>
            <dt>{t('admin.money.nextCharge')}</dt>
            <dd>
              {subscription.auto_renew ? when(subscription.next_charge_at) : t('admin.money.noRenewal')}
            </dd>
            <dt>{t('admin.money.provider')}</dt>
            <dd>{subscription.provider ?? '—'}</dd>
          </dl>
        ) : (
          <p className="admin__meta">{t('admin.money.noSubscription')}</p>
        )}
      </Section>
    </>
  );
}

/** How often, and how many times, a refund the provider is still to confirm is looked at again. */
const REFUND_RECHECK_MS = 3_000;
const REFUND_RECHECKS = 10;

/**
 * One order with its refund through the provider (shared by a person's money and the payment
 * search); `onRefunded` refreshes whatever lists it. A refund final when the server answers
 * (the wallet, Telegram Stars) reads refunded at once, in place; one the provider confirms later
 * (Stripe, YooKassa) says so and is looked at again until it does.
 */
export function Order({
  order,
  when,
  onRefunded,
  children,
}: {
  order: TAdminPaymentOrder;
  when(iso: string | null): string;
  onRefunded(): void;
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const [outcome, setOutcome] = useState<'refunded' | 'requested' | null>(null);
  const status = outcome === 'refunded' ? 'refunded' : order.status;
  const awaitingProvider = outcome === 'requested' && order.status === 'paid';
  // The lists pass a new callback on every render: the re-checks keep their own count regardless.
  const refresh = useRef(onRefunded);
  useEffect(() => {
    refresh.current = onRefunded;
  });
  useEffect(() => {
    if (!awaitingProvider) return;
    let left = REFUND_RECHECKS;
    const timer = window.setInterval(() => {
      refresh.current();
      if (--left <= 0) window.clearInterval(timer);
    }, REFUND_RECHECK_MS);
    return () => window.clearInterval(timer);
  }, [awaitingProvider]);
  return (
    <li className="admin__card" data-testid="admin-order" data-order={order.uuid} data-status={status}>
      <div className="admin__badges">
        <span
          className={`admin__badge${status === 'refunded' ? ' admin__badge--hidden' : ''}`}
          data-testid="order-status"
        >
          {t(`admin.money.status.${status}`)}
        </span>
        <span className="admin__badge">{order.provider}</span>
        <span className="admin__badge">{order.method}</span>
      </div>
      {children}
      <dl className="admin__dl">
        <dt>{t('admin.money.amount')}</dt>
        <dd>{formatMoney(order.amount, order.currency, i18n.language)}</dd>
        {order.amount_refunded > 0 && (
          <>
            <dt>{t('admin.money.amountRefunded')}</dt>
            <dd data-testid="order-refunded">
              {formatMoney(order.amount_refunded, order.currency, i18n.language)}
            </dd>
          </>
        )}
        <dt>{t('admin.money.product')}</dt>
        <dd>
          {order.product}
          {order.credits > 0 ? ` · ${t('admin.money.credits', { count: order.credits })}` : ''}
        </dd>
        <dt>{t('admin.money.created')}</dt>
        <dd>{when(order.created_at)}</dd>
        {order.paid_at && (
          <>
            <dt>{t('admin.money.paid')}</dt>
            <dd>{when(order.paid_at)}</dd>
          </>
        )}
        {order.refunded_at && (
          <>
            <dt>{t('admin.money.refundedAt')}</dt>
            <dd>{when(order.refunded_at)}</dd>
          </>
        )}
        <dt>uuid</dt>
        <dd className="admin__mono">{order.uuid}</dd>
        {order.provider_payment_id && (
          <>
            <dt>{t('admin.money.providerId')}</dt>
            <dd className="admin__mono">{order.provider_payment_id}</dd>
          </>
        )}
      </dl>
      {awaitingProvider && (
        <p className="admin__meta" data-testid="order-refund-pending">
          {t('admin.money.refundPending')}
        </p>
      )}
      {order.refundable && outcome === null && (
        <ReasonActions
          testId="order-actions"
          onDone={onRefunded}
          actions={[
            {
              id: 'refund',
              label: t('admin.money.refund', {
                amount: formatMoney(order.amount, order.currency, i18n.language),
              }),
              theme: 'danger',
              confirm: t('admin.money.refundConfirm', {
                amount: formatMoney(order.amount, order.currency, i18n.language),
              }),
              run: async (reason) => {
                const { outcome: answered } = await adminApi.refundOrder(order.uuid, reason);
                setOutcome(answered);
                useAppStore
                  .getState()
                  .showTopinfo(
                    'success',
                    t(answered === 'refunded' ? 'admin.money.refundDone' : 'admin.money.refundAsked'),
                  );
              },
            },
          ]}
        />
      )}
    </li>
  );
}
