import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/ui/alert';
import { IconCheck, IconCrown } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import './settings-subscription.css';

const PERKS = ['credits', 'speed', 'models', 'noDelay'] as const;

/** Subscription: what premium gives and the current state (no active subscription yet). */
export function Page() {
  const { t } = useTranslation();
  return (
    <PageFrame width="narrow" testId="subscription-page">
      <div className="premium-hero">
        <span className="premium-hero__icon">
          <IconCrown size={30} />
        </span>
        <h2 className="premium-hero__title">{t('subscription.title')}</h2>
        <p className="premium-hero__text">{t('subscription.text')}</p>
      </div>
      <ul className="perk-list">
        {PERKS.map((perk) => (
          <li key={perk} className="perk-list__item">
            <IconCheck size={18} />
            {t(`subscription.perks.${perk}`)}
          </li>
        ))}
      </ul>
      <div className="card card--row">
        <span className="card__label">{t('subscription.status')}</span>
        <span className="badge">{t('subscription.none')}</span>
      </div>
      <Alert tone="info">{t('subscription.unavailable')}</Alert>
    </PageFrame>
  );
}
