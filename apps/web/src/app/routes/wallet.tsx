import { useEffect } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { PageFrame } from '../../components/ui/page';
import { chooseMoneyCurrency, useMoneyCurrency, WalletMoneyOut } from '../../features/partners';
import { WalletView } from '../../features/payments';
import './wallet.css';

/** The wallet: balance per currency, transactions with filters, top up and withdraw. */
export function Page() {
  const { pathname } = useLocation();
  const params = useParams();
  const [search] = useSearchParams();
  const view = pathname.includes('pay-in')
    ? 'payIn'
    : pathname.includes('pay-out')
      ? 'payOut'
      : 'transactions';
  // A page without a currency in its address (pay-out, transfers) shows the one chosen last.
  const [preferred] = useMoneyCurrency();
  const chosen = params.currency ?? search.get('currency');
  const currency = chosen ? Number(chosen) : preferred;
  // The currency picked on the wallet becomes the one the partner screens show money in.
  useEffect(() => {
    if (chosen) chooseMoneyCurrency(Number(chosen));
  }, [chosen]);
  return (
    <PageFrame width="narrow" testId="wallet-page">
      <WalletView view={view} currency={currency} payOut={<WalletMoneyOut />} />
    </PageFrame>
  );
}
