import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
import { PayoutForm } from './payout-form';
import { TransferForm } from './transfer-form';
import '../partners.css';

const WAYS = ['payout', 'credits', 'user'] as const;
type Way = (typeof WAYS)[number];

const isWay = (value: string | null): value is Way => (WAYS as readonly (string | null)[]).includes(value);

/**
 * `/wallet/pay-out/`: the ways money leaves the wallet — a pay-out to my card, SBP or crypto
 * wallet, a transfer to my own credits, or a transfer to another Mirra user (`?to=credits`,
 * `?to=user` open the transfers directly).
 */
export function WalletMoneyOut() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('to');
  const way: Way = isWay(asked) ? asked : 'payout';
  const choose = (next: Way) =>
    setSearch(
      (current) => {
        const params = new URLSearchParams(current);
        if (next === 'payout') params.delete('to');
        else params.set('to', next);
        return params;
      },
      { replace: true },
    );
  return (
    <div className="partner-team" data-testid="money-out">
      <SegmentedChoice
        className="partner-filter"
        label={t('partners.transfer.way')}
        value={way}
        onChange={choose}
        options={WAYS.map((w) => ({
          value: w,
          label: t(`partners.transfer.ways.${w}`),
          testId: `money-out-${w}`,
        }))}
      />
      {way === 'payout' && <PayoutForm />}
      {way === 'credits' && <TransferForm key="credits" target="credits" />}
      {way === 'user' && <TransferForm key="user" target="user" />}
    </div>
  );
}
