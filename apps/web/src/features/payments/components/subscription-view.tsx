import { CURRENCY_XTR, type TPaymentMethod, type TPaymentRegion, type TPremiumState } from '@mirra/contracts';
import type { TFunction } from 'i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { formatDay } from '../../../lib/dates';
import { describeError } from '../../../lib/error-messages';
import { useSession } from '../../../lib/session';
import { paymentKeys, paymentsApi } from '../api/payments.api';
import { subscriptionApi, subscriptionKeys } from '../api/subscription.api';
import { walletKeys } from '../api/wallet.api';
import { formatMoney } from '../money';
import { ConsentBoxes, MethodChoice } from './consent-boxes';
import { checkoutNavigation } from './purchase-sheet';
import {
  checkReceiptEmail,
  needsReceiptEmail,
  priceChangedMessage,
  ReceiptEmailField,
} from './receipt-email';
import './wallet.css';

/**
 * Premium as the person has it: the plan, its price where they pay, the status, access-until and
 * the next charge date, cancel; without it (or with renewals off), get access: method, region,
 * the offer and privacy boxes, then the provider's page.
 */
export function SubscriptionView() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const mine = useQuery({ queryKey: subscriptionKeys.mine(), queryFn: subscriptionApi.mine });
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: subscriptionApi.cancel,
    onSuccess: (data) => {
      queryClient.setQueryData(subscriptionKeys.mine(), data);
      setConfirming(false);
    },
  });
  if (mine.isPending) return <Spinner />;
  if (mine.isError) return <LoadError query={mine} />;
  const sub = mine.data;
  const day = (iso: string) => formatDay(iso, i18n.language);
  const price = planMoney(t, i18n.language, sub.amount ?? sub.plan.amount, sub.currency ?? sub.plan.currency);
  return (
    <>
      <div className="card" data-testid="subscription-state" data-status={sub.status}>
        <div className="subscription-row">
          <span className="subscription-row__label">{t('subscription.status')}</span>
          <span className="badge" data-testid="subscription-status">
            {t(`subscription.statuses.${sub.status}`)}
          </span>
        </div>
        <div className="subscription-rows">
          <Row label={t('subscription.price')} testId="subscription-price">
            {t('subscription.every', { price, count: sub.plan.period_days })}
          </Row>
          <Row label={t('subscription.credits')}>
            {t('subscription.creditsValue', { count: sub.plan.credits })}
          </Row>
          {sub.access_until && (
            <Row label={t('subscription.accessUntil')} testId="subscription-access-until">
              {day(sub.access_until)}
            </Row>
          )}
          {sub.premium && (
            <Row label={t('subscription.nextCharge')} testId="subscription-next-charge">
              {sub.next_charge_at ? day(sub.next_charge_at) : t('subscription.renewalsOff')}
            </Row>
          )}
        </div>
        {sub.status === 'past_due' && <Alert>{t('subscription.pastDue')}</Alert>}
        {sub.premium && sub.auto_renew && !confirming && (
          <Button
            theme="danger"
            size="md"
            onClick={() => setConfirming(true)}
            data-testid="subscription-cancel"
          >
            {t('subscription.cancel')}
          </Button>
        )}
        {confirming && (
          <div className="stack" data-testid="subscription-cancel-confirm">
            <p>{t('subscription.cancelConfirm', { date: sub.access_until ? day(sub.access_until) : '' })}</p>
            {cancel.isError && <Alert>{describeError(t, cancel.error).alert}</Alert>}
            <Button
              theme="danger"
              loading={cancel.isPending}
              onClick={() => cancel.mutate()}
              data-testid="subscription-cancel-yes"
            >
              {t('subscription.cancelYes')}
            </Button>
            <Button theme="light" onClick={() => setConfirming(false)}>
              {t('subscription.cancelNo')}
            </Button>
          </div>
        )}
      </div>
      {(!(sub.premium && sub.auto_renew) || sub.status === 'past_due') && <GetAccess sub={sub} />}
    </>
  );
}

/** A price in the person's currency, or in Telegram Stars. */
function planMoney(t: TFunction, language: string, amount: number, currency: number): string {
  return currency === CURRENCY_XTR
    ? t('payments.starsPrice', { count: amount })
    : formatMoney(amount, currency, language);
}

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="subscription-row">
      <span className="subscription-row__label">{label}</span>
      <span className="subscription-row__value" data-testid={testId}>
        {children}
      </span>
    </div>
  );
}

function GetAccess({ sub }: { sub: TPremiumState }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [method, setMethod] = useState<TPaymentMethod | null>(null);
  const [offer, setOffer] = useState(false);
  const [privacy, setPrivacy] = useState(false);
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const accountEmail = useSession((s) => s.user?.email);
  const region = useMutation({
    mutationFn: (next: TPaymentRegion) => paymentsApi.changeRegion(next),
    onSuccess: async (data) => {
      queryClient.setQueryData(paymentKeys.catalogue(), data);
      await queryClient.invalidateQueries({ queryKey: subscriptionKeys.all });
    },
  });
  const chosen = method && sub.methods.includes(method) ? method : (sub.methods[0] ?? null);
  // The plan's price as shown, sent with the checkout: the server charges nothing if it would take another.
  const inStars = chosen !== null && sub.stars_methods.includes(chosen);
  const shown =
    inStars && sub.plan.stars
      ? { amount: sub.plan.stars, currency: CURRENCY_XTR }
      : { amount: sub.plan.amount, currency: sub.plan.currency };
  const price = planMoney(t, i18n.language, shown.amount, shown.currency);
  // Renewals switched back on need no payment; a trial is offered to those who never had it.
  const resumes = sub.premium && !sub.auto_renew && sub.status !== 'past_due';
  const trial = !resumes && chosen !== null && sub.trial_methods.includes(chosen) && sub.plan.trial_days > 0;
  const askEmail = !resumes && needsReceiptEmail(chosen, sub, accountEmail);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!offer || !privacy) {
      setError(t('errors.payments.consent_required'));
      return;
    }
    if (!chosen) return;
    const receipt = askEmail ? checkReceiptEmail(t, email) : null;
    setEmailError(receipt?.error ?? null);
    if (receipt?.error) return;
    setBusy(true);
    try {
      const started = await subscriptionApi.start({
        method: chosen,
        agree_offer: offer,
        agree_privacy: privacy,
        return: '/settings/subscription/',
        ...(resumes ? {} : shown),
        ...(receipt?.email ? { email: receipt.email } : {}),
      });
      if (started.confirmation_url && inStars) {
        // Stars: Telegram's payment sheet opens over the Mini App (its invoice link is no page to
        // leave for); premium comes when the bot hears of the payment, and the return marker shows it.
        const closed = await checkoutNavigation.payInTelegram(started.confirmation_url);
        setBusy(false);
        if ((closed === 'paid' || closed === 'pending') && started.uuid) {
          void navigate(`/settings/subscription/?payment=${started.uuid}`, { replace: true });
        } else {
          setError(t('payments.starsNotCompleted'));
        }
        return;
      }
      if (started.confirmation_url) {
        checkoutNavigation.go(started.confirmation_url);
        return;
      }
      await queryClient.invalidateQueries({ queryKey: subscriptionKeys.all });
      await queryClient.invalidateQueries({ queryKey: walletKeys.all });
      setBusy(false);
    } catch (caught) {
      const changed = priceChangedMessage(t, i18n.language, caught);
      // The new price replaces the one shown; the buyer pays again only once they saw it.
      if (changed) await queryClient.invalidateQueries({ queryKey: subscriptionKeys.all });
      setError(changed ?? describeError(t, caught).alert ?? t('errors.common.internal'));
      setBusy(false);
    }
  }

  return (
    <form className="purchase card" onSubmit={submit} noValidate data-testid="subscription-checkout">
      <div className="purchase__region">
        <span data-testid="subscription-region">{t(`payments.region.${sub.region}`)}</span>
        <button
          type="button"
          className="link"
          disabled={region.isPending}
          onClick={() => region.mutate(sub.region === 'ru' ? 'intl' : 'ru')}
          data-testid="subscription-region-change"
        >
          {t('payments.changeRegion')}
        </button>
      </div>
      <p className="lead" data-testid="subscription-offer">
        {trial
          ? // Three numbers, each with its own plural: the trial's days, its credits and the period.
            t('subscription.trialOffer', {
              count: sub.plan.trial_days,
              price,
              period: t('subscription.period', { count: sub.plan.period_days }),
              credits: t('messages.credits', { count: sub.plan.trial_credits }),
            })
          : t('subscription.every', { price, count: sub.plan.period_days })}
      </p>
      <fieldset className="purchase__group">
        <legend className="purchase__legend">{t('payments.method')}</legend>
        {sub.methods.length === 0 && <Alert tone="info">{t('subscription.unavailable')}</Alert>}
        <MethodChoice
          methods={sub.methods}
          chosen={chosen}
          onChoose={setMethod}
          label={(m) => t(`payments.methods.${m}`)}
        />
      </fieldset>
      {askEmail && (
        <ReceiptEmailField
          value={email}
          error={emailError}
          onChange={setEmail}
          testId="subscription-receipt-email"
        />
      )}
      <ConsentBoxes
        region={sub.region}
        offer={offer}
        privacy={privacy}
        onOffer={setOffer}
        onPrivacy={setPrivacy}
      />
      {chosen && chosen !== 'balance' && (
        <p className="subscription-note">{t('subscription.savedMethodNote')}</p>
      )}
      {error && (
        <div data-testid="subscription-error">
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
        data-testid="subscription-get-access"
      >
        {resumes
          ? t('subscription.resume')
          : trial
            ? t('subscription.startTrial')
            : t('subscription.getAccess')}
      </Button>
    </form>
  );
}
