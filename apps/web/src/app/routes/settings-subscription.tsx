import { useTranslation } from 'react-i18next';
import { IconCheck, IconCrown } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { SubscriptionView } from '../../features/payments';
import './settings-subscription.css';

const PERKS = ['credits', 'speed', 'models', 'noDelay'] as const;

/** Subscription: what premium gives, the person's plan and state, and getting or cancelling it. */
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
      <SubscriptionView />
    </PageFrame>
  );
}
