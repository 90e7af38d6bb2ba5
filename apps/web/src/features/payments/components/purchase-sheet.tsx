import {
  CURRENCY_XTR,
  type TPaymentMethod,
  type TPaymentProduct,
  type TPaymentRegion,
} from '@mirra/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Sheet } from '../../../components/ui/sheet';
import { Spinner } from '../../../components/ui/spinner';
import { describeError } from '../../../lib/error-messages';
import { useSession } from '../../../lib/session';
import { payInvoiceInTelegram } from '../../../lib/telegram';
import { paymentKeys, paymentsApi } from '../api/payments.api';
import { walletApi, walletKeys } from '../api/wallet.api';
import { currentReturnPath, formatMoney } from '../money';
import { ConsentBoxes, MethodChoice } from './consent-boxes';
import {
  checkReceiptEmail,
  needsReceiptEmail,
  priceChangedMessage,
  ReceiptEmailField,
} from './receipt-email';
import '../payments.css';

/**
 * Leaves the app for the provider's checkout, or (Stars) opens Telegram's own payment sheet over
 * the Mini App and answers how it was closed. Seams for tests.
 */
export const checkoutNavigation = {
  go: (url: string) => window.location.assign(url),
  payInTelegram: (url: string) => payInvoiceInTelegram(url),
};

/**
 * The purchase sheet: the credit packs and the unlimited package at the prices of the person's
 * region (which they can change), the ways to pay this server has, the offer and privacy boxes,
 * then off to the checkout; the checkout sends them back to the page they were on.
 */
export function PurchaseSheet({
  open,
  onClose,
  preferred = 'credits',
  returnPath,
}: {
  open: boolean;
  onClose(): void;
  /** Which kind of product is chosen first: a credit pack, or the unlimited package. */
  preferred?: TPaymentProduct['kind'];
  /**
   * Where the checkout sends the buyer back (an app path): the page they are on unless the
   * purchase was started for something that lives elsewhere (a model waiting to train).
   */
  returnPath?: string;
}) {
  const { t } = useTranslation();
  return (
    <Sheet open={open} onClose={onClose} title={t('payments.title')}>
      {open && <PurchaseForm preferred={preferred} returnTo={returnPath} onDone={onClose} />}
    </Sheet>
  );
}

function PurchaseForm({
  preferred,
  returnTo,
  onDone,
}: {
  preferred: TPaymentProduct['kind'];
  returnTo: string | undefined;
  onDone(): void;
}) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const catalogue = useQuery({ queryKey: paymentKeys.catalogue(), queryFn: paymentsApi.catalogue });
  const region = useMutation({
    mutationFn: (next: TPaymentRegion) => paymentsApi.changeRegion(next),
    onSuccess: (data) => queryClient.setQueryData(paymentKeys.catalogue(), data),
  });
  // What paying from the wallet would draw on, shown beside that method.
  const wallet = useQuery({ queryKey: walletKeys.balances(), queryFn: walletApi.balances, retry: false });
  const [productId, setProductId] = useState<string | null>(null);
  const [method, setMethod] = useState<TPaymentMethod | null>(null);
  const [agreeOffer, setAgreeOffer] = useState(false);
  const [agreePrivacy, setAgreePrivacy] = useState(false);
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const accountEmail = useSession((s) => s.user?.email);

  if (catalogue.isPending) return <Spinner />;
  if (catalogue.isError) return <LoadError query={catalogue} />;
  const { methods } = catalogue.data;
  // A method of the other region is dropped when the region changes.
  const chosenMethod = method && methods.includes(method) ? method : (methods[0] ?? null);
  // A way to pay priced in Stars opens Telegram's own payment sheet.
  const inStars = chosenMethod !== null && catalogue.data.stars_methods.includes(chosenMethod);
  // For Stars only what has a price in Stars is on sale.
  const products = catalogue.data.products.filter((p) => !inStars || p.stars > 0);
  const chosen =
    products.find((p) => p.id === productId) ?? products.find((p) => p.kind === preferred) ?? products[0]!;
  const price = (p: TPaymentProduct) =>
    inStars ? t('payments.starsPrice', { count: p.stars }) : formatMoney(p.amount, p.currency, i18n.language);
  const askEmail = needsReceiptEmail(chosenMethod, catalogue.data, accountEmail);
  const walletAvailable =
    wallet.data?.balances.find((b) => b.currency === catalogue.data.currency)?.available ?? null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!agreeOffer || !agreePrivacy) {
      setError(t('errors.payments.consent_required'));
      return;
    }
    if (!chosenMethod) return;
    const receipt = askEmail ? checkReceiptEmail(t, email) : null;
    setEmailError(receipt?.error ?? null);
    if (receipt?.error) return;
    setBusy(true);
    const returnPath = returnTo ?? currentReturnPath(location.pathname, location.search);
    try {
      const order = await paymentsApi.createOrder({
        product: chosen.id,
        method: chosenMethod,
        agree_offer: agreeOffer,
        agree_privacy: agreePrivacy,
        return: returnPath,
        // The price on the button: the server charges nothing if it would take another.
        ...(inStars
          ? { amount: chosen.stars, currency: CURRENCY_XTR }
          : { amount: chosen.amount, currency: chosen.currency }),
        ...(receipt?.email ? { email: receipt.email } : {}),
      });
      if (!inStars) {
        checkoutNavigation.go(order.confirmation_url);
        return;
      }
      // Stars: Telegram's payment sheet opens over the app; the purchase is granted when the bot
      // hears of the payment, and the return marker shows its result and the balance.
      const closed = await checkoutNavigation.payInTelegram(order.confirmation_url);
      setBusy(false);
      if (closed === 'paid' || closed === 'pending') {
        onDone();
        const joiner = returnPath.includes('?') ? '&' : '?';
        void navigate(`${returnPath}${joiner}payment=${order.uuid}`, { replace: true });
      } else {
        setError(t('payments.starsNotCompleted'));
      }
    } catch (caught) {
      const changed = priceChangedMessage(t, i18n.language, caught);
      // The new prices replace the ones shown; the buyer pays again only once they saw them.
      if (changed) await queryClient.invalidateQueries({ queryKey: paymentKeys.catalogue() });
      setError(changed ?? describeError(t, caught).alert ?? t('errors.common.internal'));
      setBusy(false);
    }
  }

  return (
    <form className="purchase" onSubmit={submit} noValidate data-testid="purchase-sheet">
      <div className="purchase__region">
        <span data-testid="purchase-region" data-region={catalogue.data.region}>
          {t(`payments.region.${catalogue.data.region}`)}
        </span>
        <button
          type="button"
          className="link"
          disabled={region.isPending}
          onClick={() => region.mutate(catalogue.data.region === 'ru' ? 'intl' : 'ru')}
          data-testid="purchase-region-change"
        >
          {t('payments.changeRegion')}
        </button>
      </div>
      <fieldset className="purchase__group">
        <legend className="purchase__legend">{t('payments.product')}</legend>
        {products.map((product) => (
          <label
            key={product.id}
            className={`purchase-option${product.id === chosen.id ? ' is-active' : ''}`}
            data-testid={`purchase-product-${product.id}`}
          >
            <input
              type="radio"
              name="product"
              value={product.id}
              checked={product.id === chosen.id}
              onChange={() => setProductId(product.id)}
            />
            <span className="purchase-option__name">
              {product.kind === 'credits'
                ? t('payments.pack', { count: product.credits })
                : t('payments.unlimited', { count: product.days })}
            </span>
            <span className="purchase-option__price" data-testid="purchase-price">
              {price(product)}
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="purchase__group">
        <legend className="purchase__legend">{t('payments.method')}</legend>
        {methods.length === 0 && <Alert tone="info">{t('payments.unavailable')}</Alert>}
        <MethodChoice
          methods={methods}
          chosen={chosenMethod}
          onChoose={setMethod}
          label={(m) => t(`payments.methods.${m}`)}
          testIdPrefix="purchase-method"
          aside={(m) =>
            m === 'balance' &&
            walletAvailable !== null && (
              <span className="purchase-option__price" data-testid="purchase-wallet-available">
                {formatMoney(walletAvailable, catalogue.data.currency, i18n.language)}
              </span>
            )
          }
        />
      </fieldset>
      {askEmail && (
        <ReceiptEmailField
          value={email}
          error={emailError}
          onChange={setEmail}
          testId="purchase-receipt-email"
        />
      )}
      <ConsentBoxes
        region={catalogue.data.region}
        offer={agreeOffer}
        privacy={agreePrivacy}
        onOffer={setAgreeOffer}
        onPrivacy={setAgreePrivacy}
      />
      {error && (
        <div data-testid="purchase-error">
          <Alert>{error}</Alert>
        </div>
      )}
      <Button
        type="submit"
        theme="primary"
        size="lg"
        block
        loading={busy}
        disabled={!chosenMethod}
        data-testid="purchase-submit"
      >
        {t('payments.pay', { price: price(chosen) })}
      </Button>
    </form>
  );
}
