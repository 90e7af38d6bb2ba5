import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PAYOUT_METHODS, PAYOUT_NETWORKS, readPayoutMinimum, type TPayouts } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
import { Spinner } from '../../../components/ui/spinner';
import { TextInput } from '../../../components/ui/text-input';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import { ApiError } from '../../../lib/api-error';
import { useAppStore } from '../../../lib/app-store';
import { formatMoney, walletKeys } from '../../payments';
import { partnerKeys, partnersApi } from '../api/partners.api';
import { newClientKey } from '../client-key';
import { parseMoney } from '../transfer.models';
import { useMoneyCurrency } from '../hooks/use-money-currency';
import '../partners.css';

type Method = (typeof PAYOUT_METHODS)[number];
const FIELDS = ['amount', 'card', 'phone', 'bank', 'network', 'address', 'holder'] as const;

/**
 * `/wallet/pay-out/`: amount (at least the minimum, at most what can be paid out), requisites by
 * method and the holder's name, filled in from the last pay-out. The money is reserved at once;
 * the list below shows each request's status. Everything follows the money currency chosen on the
 * wallet (roubles or dollars): the balance, the minimum and the currency of the request — each
 * currency is its own ledger, nothing is converted. Only earned commission (`payable`) is paid
 * out: topped-up money is for spending in Mirra, so it is shown apart and never offered.
 */
export function PayoutForm() {
  const { t, i18n } = useTranslation();
  const [currency] = useMoneyCurrency();
  const payouts = useQuery({ queryKey: partnerKeys.payouts(), queryFn: partnersApi.payouts });
  if (payouts.isPending) return <Spinner />;
  if (payouts.isError) return <LoadError query={payouts} />;
  const balance = payouts.data.balances.find((b) => b.currency === currency);
  const payable = Math.max(0, balance?.payable ?? 0);
  // Money in the wallet that is not paid out: top-ups and transfers received, for spending.
  const spendOnly = Math.max(0, (balance?.available ?? 0) - payable);
  const minimum = payouts.data.minimum[String(currency)] ?? 0;
  const money = (amount: number, of = currency) => formatMoney(amount, of, i18n.language);
  return (
    <div className="partner-team" data-testid="payout">
      <div className="card">
        <span className="card__label">{t('partners.payout.title')}</span>
        <strong data-testid="payout-available">
          {t('partners.payout.payable', { amount: money(payable) })}
        </strong>
        <span className="partner-muted">{t('partners.payout.minimum', { amount: money(minimum) })}</span>
        {payable < minimum ? (
          <Alert tone="info">
            <span data-testid="payout-no-money">
              {spendOnly > 0
                ? t('partners.payout.noMoneyTopUp', { minimum: money(minimum) })
                : t('partners.payout.noMoney')}
            </span>
          </Alert>
        ) : (
          <>
            {spendOnly > 0 && (
              <span className="partner-muted" data-testid="payout-spend-only">
                {t('partners.payout.topUpNote', { amount: money(spendOnly) })}
              </span>
            )}
            {/* A new currency starts a new request (its amount is that currency's payable money). */}
            <RequestForm
              key={currency}
              currency={currency}
              saved={payouts.data.saved}
              payable={payable}
              minimum={minimum}
            />
          </>
        )}
      </div>
      {payouts.data.results.length > 0 && (
        <div className="card" data-testid="payout-requests">
          <span className="card__label">{t('partners.payout.requests')}</span>
          {payouts.data.results.map((payout) => (
            <div key={payout.uuid} className="partner-level">
              <div className="partner-person__text">
                <strong>{money(payout.amount, payout.currency)}</strong>
                <span className="partner-muted">
                  {t(`partners.payout.methods.${payout.method}`)} · {payout.requisites}
                </span>
                {payout.status === 'paid' && payout.reference && (
                  <span className="partner-muted partner-payout__reference" data-testid="payout-reference">
                    {t('partners.payout.reference', { reference: payout.reference })}
                  </span>
                )}
              </div>
              <span
                className={`partner-level__badge${payout.status === 'paid' ? '' : ' partner-level__badge--locked'}`}
              >
                {t(`partners.payout.status.${payout.status}`)}
              </span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function RequestForm({
  currency,
  saved,
  payable,
  minimum,
}: {
  currency: number;
  saved: TPayouts['saved'];
  payable: number;
  minimum: number;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [method, setMethod] = useState<Method>(saved?.method ?? 'card');
  const [values, setValues] = useState({
    amount: String(Math.floor(payable / 100)),
    card: saved?.card ?? '',
    phone: saved?.phone ?? '',
    bank: saved?.bank ?? '',
    network: saved?.network ?? 'TRC20',
    address: saved?.address ?? '',
    holder: saved?.holder ?? '',
  });
  const [pending, setPending] = useState(false);
  // One key per request: a retry of a failed send reuses it (never two holds), a new request after
  // one went through gets a fresh one (else the server would answer with the earlier request).
  const [clientKey, setClientKey] = useState(newClientKey);
  const { alert, fieldErrors, showError, clearField, clear } = useFormErrors(FIELDS);
  // The amount is checked here, in the person's language and currency, before anything is sent:
  // a third decimal is refused (never cut), and the bounds are the minimum and the payable money.
  const [amountError, setAmountError] = useState<string | null>(null);
  const set = (field: keyof typeof values) => (value: string) => {
    clearField(field);
    if (field === 'amount') setAmountError(null);
    setValues((current) => ({ ...current, [field]: value }));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    clear();
    const amount = parseMoney(values.amount);
    const money = (minor: number) => formatMoney(minor, currency, i18n.language);
    const refused =
      amount === null || amount <= 0
        ? t('partners.payout.errors.amount')
        : amount < minimum
          ? t('partners.payout.errors.minimum', { amount: money(minimum) })
          : amount > payable
            ? t('partners.payout.errors.tooMuch', { amount: money(payable) })
            : null;
    setAmountError(refused);
    if (refused || amount === null) return;
    setPending(true);
    try {
      await partnersApi.requestPayout({
        currency,
        amount,
        method,
        card: method === 'card' ? values.card : null,
        phone: method === 'sbp' ? values.phone : null,
        bank: method === 'sbp' ? values.bank : null,
        network: method === 'crypto' ? values.network : null,
        address: method === 'crypto' ? values.address : null,
        holder: values.holder,
        client_key: clientKey,
      });
      setClientKey(newClientKey());
      useAppStore.getState().showTopinfo('success', t('partners.payout.sent'));
      // The request holds the amount: the wallet's balance and transactions change with it.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: partnerKeys.payouts() }),
        queryClient.invalidateQueries({ queryKey: walletKeys.all }),
      ]);
    } catch (error) {
      showError(error);
      // The server's minimum (it may have changed since the page loaded), in this currency's format.
      const said =
        error instanceof ApiError && error.parsed.kind === 'fields' ? error.parsed.fields.amount : [];
      const serverMinimum = readPayoutMinimum(said?.[0] ?? '');
      if (serverMinimum !== null) {
        setAmountError(
          t('partners.payout.errors.minimum', {
            amount: formatMoney(serverMinimum, currency, i18n.language),
          }),
        );
      }
    } finally {
      setPending(false);
    }
  };
  return (
    <form className="partner-form" onSubmit={(event) => void submit(event)} noValidate>
      {saved && <span className="partner-muted">{t('partners.payout.saved')}</span>}
      {alert && <Alert tone="error">{alert}</Alert>}
      <TextInput
        title={t('partners.payout.amount')}
        inputMode="decimal"
        name="amount"
        value={values.amount}
        onValueChange={set('amount')}
        error={amountError ?? fieldErrors.amount}
      />
      {/* Chips wrap: the longest method name (ru «Криптовалюта») never widens the page. */}
      <SegmentedChoice
        title={t('partners.payout.method')}
        value={method}
        onChange={setMethod}
        classes={{ group: 'chips', item: () => 'chip' }}
        options={PAYOUT_METHODS.map((m) => ({
          value: m,
          label: t(`partners.payout.methods.${m}`),
          testId: `payout-method-${m}`,
        }))}
      />
      {method === 'card' && (
        <TextInput
          title={t('partners.payout.card')}
          inputMode="numeric"
          autoComplete="cc-number"
          name="card"
          value={values.card}
          onValueChange={set('card')}
          error={fieldErrors.card}
        />
      )}
      {method === 'sbp' && (
        <>
          <TextInput
            title={t('partners.payout.phone')}
            inputMode="tel"
            name="phone"
            value={values.phone}
            onValueChange={set('phone')}
            error={fieldErrors.phone}
          />
          <TextInput
            title={t('partners.payout.bank')}
            name="bank"
            value={values.bank}
            onValueChange={set('bank')}
            error={fieldErrors.bank}
          />
        </>
      )}
      {method === 'crypto' && (
        <>
          <label className="field">
            <span className="field__title">{t('partners.payout.network')}</span>
            <select value={values.network} onChange={(event) => set('network')(event.target.value)}>
              {PAYOUT_NETWORKS.map((network) => (
                <option key={network} value={network}>
                  {network}
                </option>
              ))}
            </select>
          </label>
          <TextInput
            title={t('partners.payout.address')}
            name="address"
            value={values.address}
            onValueChange={set('address')}
            error={fieldErrors.address ?? fieldErrors.network}
          />
        </>
      )}
      <TextInput
        title={t('partners.payout.holder')}
        autoComplete="cc-name"
        name="holder"
        value={values.holder}
        onValueChange={set('holder')}
        error={fieldErrors.holder}
      />
      <Button type="submit" theme="primary" loading={pending} data-testid="payout-submit">
        {t('partners.payout.submit')}
      </Button>
    </form>
  );
}
