import { useTranslation } from 'react-i18next';
import { Sheet } from '../../../components/ui/sheet';
import '../settings.css';

export type InfoTopic = 'faq' | 'features' | 'support';

const FAQ = ['model', 'time', 'privacy', 'credits'] as const;
const FEATURES = ['faces', 'styles', 'edit', 'motion', 'feed', 'partners'] as const;

export interface SupportContactsConfig {
  telegramUrl: string | null;
  email: string | null;
}

/** FAQ, service features and support: short texts in a sheet. */
export function InfoSheet({
  topic,
  onClose,
  support,
  aiOffered,
}: {
  topic: InfoTopic | null;
  onClose(): void;
  /** The server's support contacts; undefined while they are being read. */
  support: SupportContactsConfig | undefined;
  /** Whether an AI engine serves some mode here; false: the features are said to be made offline. */
  aiOffered?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Sheet open={topic !== null} onClose={onClose} title={topic ? t(`settings.items.${topic}`) : ''}>
      {topic === 'faq' && (
        <div className="faq">
          {FAQ.map((key) => (
            <details key={key} className="faq__item">
              <summary>{t(`faq.${key}.q`)}</summary>
              <p>{t(`faq.${key}.a`)}</p>
            </details>
          ))}
        </div>
      )}
      {topic === 'features' && aiOffered === false && (
        <p className="muted-note" data-testid="features-offline-note">
          {t('features.offlineNote')}
        </p>
      )}
      {topic === 'features' && (
        <ul className="feature-list">
          {FEATURES.map((key) => (
            <li key={key}>
              <strong>{t(`features.${key}.title`)}</strong>
              <span>{t(`features.${key}.text`)}</span>
            </li>
          ))}
        </ul>
      )}
      {topic === 'features' && (
        <p className="muted-note" data-testid="features-art-credits">
          {t('features.artCredits')}
        </p>
      )}
      {topic === 'support' && <SupportContacts contacts={support} />}
    </Sheet>
  );
}

/**
 * Where a person answers: the configured Telegram contact and/or email. With none configured the
 * sheet says so, instead of offering a button that leads nowhere.
 */
function SupportContacts({ contacts }: { contacts: SupportContactsConfig | undefined }) {
  const { t } = useTranslation();
  if (!contacts) return <p className="form__text">{t('common.loading')}</p>;
  const { telegramUrl, email } = contacts;
  if (!telegramUrl && !email) {
    return (
      <p className="form__text" data-testid="support-none">
        {t('support.none')}
      </p>
    );
  }
  return (
    <div className="stack">
      <p className="form__text">{t('support.text')}</p>
      {telegramUrl && (
        <a
          className="btn btn--primary btn--md btn--block"
          href={telegramUrl}
          target="_blank"
          rel="noreferrer"
          data-testid="support-telegram"
        >
          <span className="btn__label">{t('support.telegram')}</span>
        </a>
      )}
      {email && (
        <a
          className={`btn ${telegramUrl ? 'btn--light' : 'btn--primary'} btn--md btn--block`}
          href={`mailto:${email}`}
          data-testid="support-email"
        >
          <span className="btn__label">{t('support.email')}</span>
        </a>
      )}
    </div>
  );
}
