import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { DEFAULT_WALLET_CURRENCY_ID } from '@mirra/contracts';
import { Alert } from '../../components/ui/alert';
import { ButtonLink } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { IconWallet } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { numberFormat } from '../../lib/locale-fallback';
import './wallet.css';

const FILTERS = ['purchases', 'transfers', 'withdrawals', 'frozen', 'referral'] as const;

/** The wallet: balance in dollars, filters, transactions, top up and withdraw frames. */
export function Page() {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const [filter, setFilter] = useState<(typeof FILTERS)[number] | null>(null);
  const view = pathname.includes('pay-in')
    ? 'payIn'
    : pathname.includes('pay-out')
      ? 'payOut'
      : 'transactions';
  const balance = numberFormat(i18n.language, { style: 'currency', currency: 'USD' }).format(0);
  return (
    <PageFrame width="narrow" testId="wallet-page">
      <div className="balance-card">
        <span className="balance-card__label">{t('wallet.balance')}</span>
        <span className="balance-card__value">{balance}</span>
        <div className="balance-card__actions">
          <ButtonLink to="/wallet/pay-in/" theme="light" size="sm">
            {t('wallet.topUp')}
          </ButtonLink>
          <ButtonLink to="/wallet/pay-out/" theme="primary-outline" size="sm">
            {t('wallet.withdraw')}
          </ButtonLink>
        </div>
      </div>
      <div className="tabs">
        <Link
          to={`/wallet/transactions/${DEFAULT_WALLET_CURRENCY_ID}/`}
          className={`tabs__tab${view === 'transactions' ? ' is-active' : ''}`}
        >
          {t('wallet.history')}
        </Link>
        <Link to="/wallet/pay-in/" className={`tabs__tab${view === 'payIn' ? ' is-active' : ''}`}>
          {t('titles.payIn')}
        </Link>
        <Link to="/wallet/pay-out/" className={`tabs__tab${view === 'payOut' ? ' is-active' : ''}`}>
          {t('titles.payOut')}
        </Link>
      </div>
      {view === 'transactions' ? (
        <>
          <div className="chips">
            {FILTERS.map((name) => (
              <button
                key={name}
                type="button"
                className={`chip${filter === name ? ' is-active' : ''}`}
                aria-pressed={filter === name}
                onClick={() => setFilter(filter === name ? null : name)}
              >
                {t(`wallet.filters.${name}`)}
              </button>
            ))}
          </div>
          <EmptyState
            icon={<IconWallet size={28} />}
            title={t('wallet.empty')}
            text={t('wallet.emptyText')}
          />
        </>
      ) : (
        <Alert tone="info">
          {t(view === 'payIn' ? 'wallet.payInUnavailable' : 'wallet.payOutUnavailable')}
        </Alert>
      )}
    </PageFrame>
  );
}
