import { WALLET_CURRENCIES } from '@mirra/contracts';
import { useTranslation } from 'react-i18next';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
import { useMoneyCurrency } from '../hooks/use-money-currency';

const SIGNS: Record<number, string> = { 643: '₽', 840: '$' };

/** The currency's sign alone: ₽ for roubles, $ for dollars. */
export const currencySign = (currency: number) => SIGNS[currency] ?? String(currency);

/**
 * ₽ / $: which currency's own sums the screen shows (the choice is remembered for every screen);
 * `onChange` hears this switch's own choice (a calculator re-asks in the new currency).
 */
export function CurrencySwitch({ onChange }: { onChange?(currency: number): void } = {}) {
  const { t } = useTranslation();
  const [currency, chooseCurrency] = useMoneyCurrency();
  const setCurrency = (next: number) => {
    chooseCurrency(next);
    onChange?.(next);
  };
  return (
    <SegmentedChoice
      className="partner-currency"
      itemClassName="partner-currency__item"
      label={t('partners.stats.currency')}
      value={currency}
      onChange={setCurrency}
      options={WALLET_CURRENCIES.map((id) => ({
        value: id,
        label: currencySign(id),
        ariaLabel: t(`wallet.currencies.${id}`),
        testId: `money-currency-${id}`,
      }))}
    />
  );
}
