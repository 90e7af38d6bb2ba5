import type { TPublicUser } from '@mirra/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { TextInput } from '../../../components/ui/text-input';
import { describeError } from '../../../lib/error-messages';
import { numberFormat } from '../../../lib/locale-fallback';
import { useSession } from '../../../lib/session';
import { refreshBalance, useCreditBalance } from '../../credits';
import { formatMoney, walletKeys } from '../../payments';
import { partnerKeys, partnersApi } from '../api/partners.api';
import { useMoneyCurrency } from '../hooks/use-money-currency';
import { newClientKey } from '../client-key';
import { creditsFor, creditsPrice, parseMoney, recipientUuid } from '../transfer.models';
import { CurrencySwitch, currencySign } from './currency-switch';
import '../partners.css';

export type TransferTarget = 'credits' | 'user';

/** The most credits one transfer buys (the server's limit). */
const MAX_CREDITS = 1_000_000;

interface Plan {
  currency: number;
  /** What leaves the wallet, minor units. */
  cost: number;
  credits?: number;
  recipient?: TPublicUser;
}

/**
 * A transfer out of the wallet's available money: to my own credits at the configured rate, or
 * to another Mirra user by their profile link or uuid. The form checks the amount against the
 * balance, a confirmation says exactly what happens (what leaves, what arrives, the fee, the
 * balance after), and a send that fails keeps its key, so trying again can never move the money
 * twice; a new transfer after a success gets a new key.
 */
export function TransferForm({ target }: { target: TransferTarget }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [currency] = useMoneyCurrency();
  const balances = useQuery({ queryKey: walletKeys.balances(), queryFn: partnersApi.balances });
  const rates = useQuery({
    queryKey: partnerKeys.creditRates(),
    queryFn: partnersApi.creditRates,
    enabled: target === 'credits',
  });
  const credits = useCreditBalance({ enabled: target === 'credits' });
  const me = useSession((s) => s.user);
  const [amount, setAmount] = useState('');
  const [to, setTo] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; to?: string; alert?: string }>({});
  const [checking, setChecking] = useState(false);
  const [plan, setPlan] = useState<Plan | null>(null);
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState<Plan | null>(null);
  const [clientKey, setClientKey] = useState(newClientKey);

  if (balances.isPending || (target === 'credits' && rates.isPending)) return <Spinner />;
  if (balances.isError) return <LoadError query={balances} />;
  if (target === 'credits' && rates.isError) return <LoadError query={rates} />;

  const available = balances.data.balances.find((b) => b.currency === currency)?.available ?? 0;
  const rate = rates.data?.rates[String(currency)] ?? 0;
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  const whole = (value: number) => numberFormat(i18n.language).format(value);
  const maxCredits = Math.min(MAX_CREDITS, creditsFor(available, rate));

  const check = async (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (target === 'credits') {
      const wanted = /^\d{1,7}$/.test(amount.trim()) ? Number(amount.trim()) : NaN;
      if (!Number.isInteger(wanted) || wanted < 1 || wanted > MAX_CREDITS) {
        found.amount = t('partners.transfer.errors.credits', { max: whole(MAX_CREDITS) });
      } else if (creditsPrice(wanted, rate) > available) {
        found.amount = t('partners.transfer.errors.tooMuch', { amount: money(available) });
      }
      setErrors(found);
      if (found.amount) return;
      setPlan({ currency, cost: creditsPrice(wanted, rate), credits: wanted });
      return;
    }
    const minor = parseMoney(amount);
    if (minor === null || minor <= 0) found.amount = t('partners.transfer.errors.amount');
    else if (minor > available) {
      found.amount = t('partners.transfer.errors.tooMuch', { amount: money(available) });
    }
    const uuid = recipientUuid(to);
    if (!uuid) found.to = t('partners.transfer.errors.recipient');
    else if (me && uuid === me.uuid.toLowerCase()) found.to = t('partners.transfer.errors.self');
    setErrors(found);
    if (found.amount || found.to || !uuid || minor === null) return;
    setChecking(true);
    try {
      const recipient = await queryClient.fetchQuery({
        queryKey: partnerKeys.recipient(uuid),
        queryFn: () => partnersApi.recipient(uuid),
      });
      setPlan({ currency, cost: minor, recipient });
    } catch (error) {
      const shown = describeError(t, error);
      setErrors({ to: shown.alert ?? t('partners.transfer.errors.recipient') });
    } finally {
      setChecking(false);
    }
  };

  const send = async () => {
    if (!plan) return;
    setSending(true);
    setErrors({});
    try {
      if (target === 'credits') {
        await partnersApi.toCredits({
          currency: plan.currency,
          credits: plan.credits!,
          client_key: clientKey,
        });
      } else {
        await partnersApi.toUser({
          currency: plan.currency,
          amount: plan.cost,
          to: plan.recipient!.uuid,
          client_key: clientKey,
        });
      }
      setClientKey(newClientKey());
      setDone(plan);
      setPlan(null);
      setAmount('');
      setTo('');
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
      void queryClient.invalidateQueries({ queryKey: partnerKeys.payouts() });
      if (target === 'credits') refreshBalance(queryClient);
    } catch (error) {
      // The key stays: sending again repeats this transfer, never a second one.
      setErrors({ alert: describeError(t, error).alert ?? t('errors.common.internal') });
    } finally {
      setSending(false);
    }
  };

  if (done) {
    return (
      <div className="card partner-transfer" data-testid="transfer-done">
        <Alert tone="success">
          {done.credits !== undefined
            ? t('partners.transfer.doneCredits', {
                credits: whole(done.credits),
                count: done.credits,
                amount: money(done.cost),
              })
            : t('partners.transfer.doneUser', {
                amount: formatMoney(done.cost, done.currency, i18n.language),
                name: personName(done.recipient!),
              })}
        </Alert>
        <div className="partner-actions">
          <Button theme="primary" size="sm" onClick={() => setDone(null)} data-testid="transfer-again">
            {t('partners.transfer.again')}
          </Button>
          <ButtonLink theme="light" size="sm" to={`/wallet/transactions/${done.currency}/`}>
            {t('partners.transfer.history')}
          </ButtonLink>
        </div>
      </div>
    );
  }

  if (plan) {
    const rows: [string, string, string][] = [
      ['send', t('partners.transfer.confirm.from'), money(plan.cost)],
      plan.credits !== undefined
        ? ['get', t('partners.transfer.confirm.credits'), whole(plan.credits)]
        : ['to', t('partners.transfer.confirm.to'), personLabel(plan.recipient!)],
      ['fee', t('partners.transfer.confirm.fee'), t('partners.transfer.confirm.noFee')],
      ['after', t('partners.transfer.confirm.balanceAfter'), money(available - plan.cost)],
    ];
    if (plan.credits !== undefined && credits.data) {
      rows.push([
        'credits-after',
        t('partners.transfer.confirm.creditsAfter'),
        whole(credits.data.balance + plan.credits),
      ]);
    }
    return (
      <div className="card partner-transfer" data-testid="transfer-confirm">
        <span className="card__label">{t('partners.transfer.confirm.title')}</span>
        <dl className="partner-summary">
          {rows.map(([id, label, value]) => (
            <div key={id} className="partner-summary__row" data-testid={`transfer-confirm-${id}`}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        {plan.credits === undefined && (
          <span className="partner-muted">{t('partners.transfer.confirm.final')}</span>
        )}
        {errors.alert && <Alert tone="error">{errors.alert}</Alert>}
        <Button
          theme="primary"
          block
          loading={sending}
          onClick={() => void send()}
          data-testid="transfer-send"
        >
          {sending ? t('partners.transfer.sending') : t('partners.transfer.confirm.send')}
        </Button>
        <Button theme="light" block disabled={sending} onClick={() => setPlan(null)}>
          {t('partners.transfer.confirm.back')}
        </Button>
      </div>
    );
  }

  return (
    <form
      className="card partner-form partner-transfer"
      onSubmit={(event) => void check(event)}
      noValidate
      data-testid={`transfer-${target}`}
    >
      <div className="partner-heading">
        <span className="card__label">
          {t(target === 'credits' ? 'partners.transfer.toCreditsTitle' : 'partners.transfer.toUserTitle')}
        </span>
        <CurrencySwitch />
      </div>
      <strong data-testid="transfer-available">
        {t('partners.payout.available', { amount: money(available) })}
      </strong>
      {target === 'credits' ? (
        <>
          <span className="partner-muted" data-testid="transfer-rate">
            {rate > 0
              ? t('partners.transfer.rate', { sign: money(100), credits: whole(rate), count: rate })
              : t('partners.transfer.noRate')}
          </span>
          {rate > 0 && maxCredits < 1 ? (
            <Alert tone="info">{t('partners.transfer.nothing')}</Alert>
          ) : (
            rate > 0 && (
              <>
                <TextInput
                  title={t('partners.transfer.credits')}
                  inputMode="numeric"
                  name="credits"
                  autoComplete="off"
                  maxLength={7}
                  value={amount}
                  onValueChange={(value) => {
                    setErrors({});
                    setAmount(value.replace(/\D/g, ''));
                  }}
                  error={errors.amount}
                  hint={
                    /^\d+$/.test(amount) && Number(amount) > 0
                      ? t('partners.transfer.costs', { amount: money(creditsPrice(Number(amount), rate)) })
                      : t('partners.transfer.upTo', { credits: whole(maxCredits), count: maxCredits })
                  }
                  data-testid="transfer-amount"
                />
                <Button type="submit" theme="primary" block data-testid="transfer-next">
                  {t('partners.transfer.next')}
                </Button>
              </>
            )
          )}
        </>
      ) : available <= 0 ? (
        <Alert tone="info">{t('partners.transfer.nothing')}</Alert>
      ) : (
        <>
          <TextInput
            title={t('partners.transfer.recipient')}
            name="recipient"
            autoComplete="off"
            spellCheck={false}
            maxLength={300}
            value={to}
            onValueChange={(value) => {
              setErrors((current) => ({ ...current, to: undefined, alert: undefined }));
              setTo(value);
            }}
            error={errors.to}
            hint={t('partners.transfer.recipientHint')}
            data-testid="transfer-recipient"
          />
          <TextInput
            title={t('partners.transfer.amount', { sign: currencySign(currency) })}
            inputMode="decimal"
            name="amount"
            autoComplete="off"
            maxLength={12}
            value={amount}
            onValueChange={(value) => {
              setErrors((current) => ({ ...current, amount: undefined, alert: undefined }));
              setAmount(value);
            }}
            error={errors.amount}
            data-testid="transfer-amount"
          />
          <Button type="submit" theme="primary" block loading={checking} data-testid="transfer-next">
            {t('partners.transfer.next')}
          </Button>
        </>
      )}
    </form>
  );
}

function personName(user: TPublicUser): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.username;
}

function personLabel(user: TPublicUser): string {
  const name = personName(user);
  return user.username && name !== user.username ? `${name} (@${user.username})` : name;
}
