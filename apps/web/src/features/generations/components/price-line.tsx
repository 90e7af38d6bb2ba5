import { useTranslation } from 'react-i18next';
import type { TPrice } from '../../../lib/api-types';
import '../generations.css';

/** What submitting costs and what I have, before I press it. */
export function PriceLine({ price }: { price: TPrice | undefined }) {
  const { t } = useTranslation();
  if (!price) return <p className="price-line price-line--loading" aria-hidden="true" />;
  const short = price.balance !== null && price.balance < price.cost;
  return (
    <p className="price-line" data-testid="price-line">
      <span>
        {t('generate.cost')}:{' '}
        <strong data-testid="price-cost">{t('messages.credits', { count: price.cost })}</strong>
      </span>
      {price.balance !== null && (
        <span className={short ? 'price-line__short' : undefined}>
          {t('generate.balance')}:{' '}
          <strong data-testid="price-balance">{t('messages.credits', { count: price.balance })}</strong>
        </span>
      )}
    </p>
  );
}
