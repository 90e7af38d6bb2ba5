import {
  WALLET_CURRENCIES,
  WALLET_FILTERS,
  WALLET_PAY_IN_LIMITS,
  type TPaymentMethod,
  type TWalletEntry,
  type TWalletFilter,
} from '@mirra/contracts';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconWallet } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { ListMore } from '../../../components/ui/paged-list-parts';
import { Spinner } from '../../../components/ui/spinner';
import { TextInput } from '../../../components/ui/text-input';
import { formatDateTime } from '../../../lib/dates';
import { describeError } from '../../../lib/error-messages';
import { useLoadMoreOnView } from '../../../lib/use-load-more-on-view';
import { paymentKeys, paymentsApi } from '../api/payments.api';
import { walletApi, walletKeys } from '../api/wallet.api';
import { currencySign, formatMoney, parseMajorAmount } from '../money';
import { ConsentBoxes, MethodChoice } from './consent-boxes';
import { checkoutNavigation } from './purchase-sheet';
import './wallet.css';

export type WalletViewName = 'transactions' | 'payIn' | 'payOut';

const knownCurrency = (value: number) => (WALLET_CURRENCIES as readonly number[]).includes(value);

/** The history's filter, from the address's `?filter=` (an unknown one is no filter). */
const filterOf = (value: string | null): TWalletFilter | null =>
  (WALLET_FILTERS as readonly string[]).includes(value ?? '') ? (value as TWalletFilter) : null;
/** The address's query for a filter: `?filter=frozen`, or nothing. */
const filterQuery = (filter: TWalletFilter | null) => (filter ? `?filter=${filter}` : '');

/**
 * The wallet (money, not credits): the balance of one currency with what is held and on its way,
 * its transactions with the screen's filters, top-up through a payment provider, and pay-out (the
 * form the page passes in: pay-outs belong to the partner programme, which payments does not import).
 */
export function WalletView({
  view,
  currency: asked,
  payOut,
}: {
  view: WalletViewName;
  currency: number;
  payOut?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const currency = knownCurrency(asked) ? asked : 643;
  const [search] = useSearchParams();
  const filter = filterOf(search.get('filter'));
  const balances = useQuery({ queryKey: walletKeys.balances(), queryFn: walletApi.balances });
  const balance = balances.data?.balances.find((b) => b.currency === currency);
  const money = (amount: number) => formatMoney(amount, currency, i18n.language);
  return (
    <>
      <div className="chips" role="tablist" aria-label={t('wallet.currency')}>
        {WALLET_CURRENCIES.map((c) => (
          <Link
            key={c}
            to={
              view === 'transactions'
                ? `/wallet/transactions/${c}/${filterQuery(filter)}`
                : `/wallet/${view === 'payIn' ? 'pay-in' : 'pay-out'}/?currency=${c}`
            }
            className={`chip${c === currency ? ' is-active' : ''}`}
            aria-current={c === currency ? 'page' : undefined}
            data-testid={`wallet-currency-${c}`}
          >
            {currencySign(c)} {t(`wallet.currencies.${c}`)}
          </Link>
        ))}
      </div>
      <div className="balance-card" data-testid="wallet-balance-card">
        <span className="balance-card__label">{t('wallet.balance')}</span>
        <span className="balance-card__value" data-testid="wallet-balance">
          {balances.isPending ? '…' : money(balance?.available ?? 0)}
        </span>
        {balances.isError && <LoadError query={balances} />}
        {balance && (balance.frozen > 0 || balance.pending > 0 || balance.reserved > 0) && (
          <span className="wallet-held" data-testid="wallet-held">
            {[
              balance.frozen > 0 ? t('wallet.frozenAmount', { amount: money(balance.frozen) }) : null,
              balance.pending > 0 ? t('wallet.pendingAmount', { amount: money(balance.pending) }) : null,
              balance.reserved > 0 ? t('wallet.reservedAmount', { amount: money(balance.reserved) }) : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </span>
        )}
        <div className="balance-card__actions">
          <ButtonLink to={`/wallet/pay-in/?currency=${currency}`} theme="light" size="sm">
            {t('wallet.topUp')}
          </ButtonLink>
          <ButtonLink to="/wallet/pay-out/" theme="primary-outline" size="sm">
            {t('wallet.withdraw')}
          </ButtonLink>
        </div>
      </div>
      <div className="tabs wallet-tabs">
        <Link
          to={`/wallet/transactions/${currency}/${filterQuery(filter)}`}
          className={`tabs__tab${view === 'transactions' ? ' is-active' : ''}`}
        >
          {t('wallet.history')}
        </Link>
        <Link
          to={`/wallet/pay-in/?currency=${currency}`}
          className={`tabs__tab${view === 'payIn' ? ' is-active' : ''}`}
        >
          {t('titles.payIn')}
        </Link>
        <Link to="/wallet/pay-out/" className={`tabs__tab${view === 'payOut' ? ' is-active' : ''}`}>
          {t('titles.payOut')}
        </Link>
      </div>
      {view === 'transactions' && <Transactions currency={currency} filter={filter} />}
      {view === 'payIn' && <PayIn currency={currency} />}
      {view === 'payOut' && (payOut ?? <Alert tone="info">{t('wallet.payOutUnavailable')}</Alert>)}
    </>
  );
}

/**
 * The history of one currency. Its filter lives in the address (`?filter=`), so a reload, the back
 * button and a shared link show the same list; a change replaces the address rather than adding
 * a step back for each press.
 */
function Transactions({ currency, filter }: { currency: number; filter: TWalletFilter | null }) {
  const { t } = useTranslation();
  const [, setSearch] = useSearchParams();
  const setFilter = (next: TWalletFilter | null) =>
    setSearch(
      (current) => {
        const search = new URLSearchParams(current);
        if (next) search.set('filter', next);
        else search.delete('filter');
        return search;
      },
      { replace: true },
    );
  const list = useInfiniteQuery({
    queryKey: walletKeys.transactions(currency, filter),
    queryFn: ({ pageParam }) => walletApi.transactions(currency, filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
  });
  const sentinel = useLoadMoreOnView(list);
  const entries = list.data?.pages.flatMap((page) => page.results) ?? [];
  return (
    <>
      <div className="chips" data-testid="wallet-filters">
        {WALLET_FILTERS.map((name) => (
          <button
            key={name}
            type="button"
            className={`chip${filter === name ? ' is-active' : ''}`}
            aria-pressed={filter === name}
            onClick={() => setFilter(filter === name ? null : name)}
            data-testid={`wallet-filter-${name}`}
          >
            {t(`wallet.filters.${name}`)}
          </button>
        ))}
      </div>
      {list.isPending ? (
        <Spinner />
      ) : list.isError ? (
        <LoadError query={list} />
      ) : entries.length === 0 ? (
        <EmptyState icon={<IconWallet size={28} />} title={t('wallet.empty')} text={t('wallet.emptyText')} />
      ) : (
        <ul className="wallet-list" data-testid="wallet-transactions">
          {entries.map((entry) => (
            <TransactionRow key={entry.id} entry={entry} />
          ))}
        </ul>
      )}
      <ListMore list={list} sentinel={sentinel} />
    </>
  );
}

function TransactionRow({ entry }: { entry: TWalletEntry }) {
  const { t, i18n } = useTranslation();
  const amount = formatMoney(Math.abs(entry.amount), entry.currency, i18n.language);
  const status = entry.frozen ? 'frozen' : entry.status;
  return (
    <li className="wallet-entry" data-testid="wallet-entry" data-kind={entry.kind} data-status={status}>
      <span className="wallet-entry__main">
        <span className="wallet-entry__kind">{t(`wallet.kinds.${entry.kind}`)}</span>
        <span className="wallet-entry__date">
          {formatDateTime(entry.created_at, i18n.language)}
          {entry.frozen && entry.frozen_until
            ? ` · ${t('wallet.frozenUntil', { date: formatDateTime(entry.frozen_until, i18n.language) })}`
            : ''}
        </span>
      </span>
      <span className="wallet-entry__side">
        <span
          className={`wallet-entry__amount wallet-entry__amount--${entry.amount > 0 ? 'in' : 'out'}${
            entry.status === 'cancelled' ? ' is-cancelled' : ''
          }`}
          data-testid="wallet-entry-amount"
        >
          {entry.amount > 0 ? '+' : '−'}
          {amount}
        </span>
        <span className={`badge wallet-status wallet-status--${status}`}>
          {t(`wallet.statuses.${status}`)}
        </span>
      </span>
    </li>
  );
}

function PayIn({ currency }: { currency: number }) {
  const { t, i18n } = useTranslation();
  const catalogue = useQuery({ queryKey: paymentKeys.catalogue(), queryFn: paymentsApi.catalogue });
  const [text, setText] = useState('');
  const [method, setMethod] = useState<TPaymentMethod | null>(null);
  const [offer, setOffer] = useState(false);
  const [privacy, setPrivacy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (catalogue.isPending) return <Spinner />;
  if (catalogue.isError) return <LoadError query={catalogue} />;
  // The wallet is topped up through a provider, never from itself.
  const methods = catalogue.data.methods.filter((m) => m !== 'balance');
  const chosen = method ?? methods[0] ?? null;
  const limits = WALLET_PAY_IN_LIMITS[currency]!;
  const amount = parseMajorAmount(text);
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (amount === null || amount < limits.min || amount > limits.max) {
      setError(t('wallet.amountRange', { min: money(limits.min), max: money(limits.max) }));
      return;
    }
    if (!offer || !privacy) {
      setError(t('errors.payments.consent_required'));
      return;
    }
    if (!chosen) return;
    setBusy(true);
    try {
      const order = await paymentsApi.createOrder({
        product: 'wallet_top_up',
        amount,
        currency,
        method: chosen,
        agree_offer: offer,
        agree_privacy: privacy,
        return: `/wallet/transactions/${currency}/`,
      });
      checkoutNavigation.go(order.confirmation_url);
    } catch (caught) {
      setError(describeError(t, caught).alert ?? t('errors.common.internal'));
      setBusy(false);
    }
  }

  return (
    <form className="purchase" onSubmit={submit} noValidate data-testid="wallet-pay-in">
      <TextInput
        title={t('wallet.amount', { sign: currencySign(currency) })}
        value={text}
        onValueChange={setText}
        inputMode="decimal"
        autoComplete="off"
        maxLength={12}
        hint={t('wallet.amountRange', { min: money(limits.min), max: money(limits.max) })}
        data-testid="wallet-pay-in-amount"
      />
      <fieldset className="purchase__group">
        <legend className="purchase__legend">{t('payments.method')}</legend>
        {methods.length === 0 && <Alert tone="info">{t('wallet.payInUnavailable')}</Alert>}
        <MethodChoice
          methods={methods}
          chosen={chosen}
          onChoose={setMethod}
          label={(m) => t(`payments.methods.${m}`)}
        />
      </fieldset>
      <ConsentBoxes
        region={catalogue.data.region}
        offer={offer}
        privacy={privacy}
        onOffer={setOffer}
        onPrivacy={setPrivacy}
      />
      {error && (
        <div data-testid="wallet-pay-in-error">
          <Alert>{error}</Alert>
        </div>
      )}
      <Button
        type="submit"
        theme="primary"
        size="lg"
        block
        loading={busy}
        disabled={!chosen}
        data-testid="wallet-pay-in-submit"
      >
        {amount !== null && amount > 0
          ? t('wallet.topUpAmount', { amount: money(amount) })
          : t('wallet.topUp')}
      </Button>
    </form>
  );
}
