import { CURRENCY_XTR, ZEmail, type TPaymentMethod, type TPaymentMethodFacts } from '@mirra/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/ui/text-input';
import { ApiError } from '../../../lib/api-error';
import { formatMoney } from '../money';

/**
 * A provider that fiscalises every payment (54-FZ) sends the receipt by email (the server lists
 * its methods in `receipt_email_methods`): an account without one (signed up through Telegram) is
 * asked for an address, kept on the order only.
 */
export function needsReceiptEmail(
  method: TPaymentMethod | null,
  facts: Pick<TPaymentMethodFacts, 'receipt_email_methods'>,
  accountEmail: string | null | undefined,
) {
  return method !== null && facts.receipt_email_methods.includes(method) && !accountEmail;
}

/** The typed address as the server will take it, or the message to show under the field. */
export function checkReceiptEmail(
  t: TFunction,
  value: string,
): { email: string; error: null } | { email: null; error: string } {
  if (!value.trim()) return { email: null, error: t('errors.payments.email_required') };
  const parsed = ZEmail.safeParse(value);
  return parsed.success
    ? { email: parsed.data, error: null }
    : { email: null, error: t('fieldErrors.invalidEmail') };
}

export function ReceiptEmailField({
  value,
  error,
  onChange,
  testId,
}: {
  value: string;
  error: string | null;
  onChange(value: string): void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      title={t('payments.receiptEmail')}
      type="email"
      inputMode="email"
      autoComplete="email"
      maxLength={254}
      value={value}
      onValueChange={onChange}
      error={error}
      hint={t('payments.receiptEmailHint')}
      data-testid={testId}
    />
  );
}

/**
 * The server would charge another price than the one shown (the catalogue or the region changed
 * meanwhile): nothing was charged; the message names the new price, shown on the form as well.
 */
export function priceChangedMessage(t: TFunction, language: string, error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'payments.price_changed') return null;
  const body = error.body as { amount?: unknown; currency?: unknown };
  if (typeof body.amount !== 'number' || typeof body.currency !== 'number') {
    return t('errors.payments.price_changed');
  }
  const price =
    body.currency === CURRENCY_XTR
      ? t('payments.starsPrice', { count: body.amount })
      : formatMoney(body.amount, body.currency, language);
  return t('payments.priceChanged', { price });
}
