import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { IconChevron, IconUsers, IconWallet } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { useAppStore } from '../../lib/app-store';
import { useSession } from '../../lib/session';
import './settings-mlm.css';

const STATS = ['referals', 'payedPartners', 'turnoverMonth', 'income'] as const;

/** Partner programme: the referral link, zeroed statistics, wallet and structure entries. */
export function Page() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const showTopinfo = useAppStore((s) => s.showTopinfo);
  const copy = async () => {
    if (!user) return;
    try {
      await navigator.clipboard.writeText(user.reflink);
      showTopinfo('success', t('common.copied'));
    } catch {
      showTopinfo('error', t('common.copyFailed'));
    }
  };
  return (
    <PageFrame width="narrow" testId="mlm-page">
      <p className="lead">{t('mlm.description')}</p>
      <div className="card">
        <span className="card__label">{t('mlm.reflink')}</span>
        <code className="reflink">{user?.reflink ?? '—'}</code>
        <Button theme="primary" size="sm" onClick={() => void copy()} disabled={!user}>
          {t('common.copy')}
        </Button>
      </div>
      <div className="stat-grid">
        {STATS.map((stat) => (
          <div key={stat} className="stat">
            <span className="stat__value">0</span>
            <span className="stat__label">{t(`mlm.stats.${stat}`)}</span>
          </div>
        ))}
      </div>
      <div className="list">
        <Link to="/wallet" className="list__row">
          <IconWallet size={20} />
          <span className="list__label">{t('titles.wallet')}</span>
          <IconChevron size={18} />
        </Link>
        <Link to="/structure/" className="list__row">
          <IconUsers size={20} />
          <span className="list__label">{t('titles.structure')}</span>
          <IconChevron size={18} />
        </Link>
      </div>
    </PageFrame>
  );
}
