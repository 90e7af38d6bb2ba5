import { useTranslation } from 'react-i18next';
import { Sheet } from '../../../components/ui/sheet';

export type InfoTopic = 'faq' | 'features' | 'support';

const FAQ = ['model', 'time', 'privacy', 'credits'] as const;
const FEATURES = ['faces', 'styles', 'edit', 'video', 'feed', 'partners'] as const;

/** FAQ, service features and support: short texts in a sheet. */
export function InfoSheet({
  topic,
  onClose,
  supportUrl,
}: {
  topic: InfoTopic | null;
  onClose(): void;
  supportUrl: string | null;
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
      {topic === 'support' && (
        <div className="stack">
          <p className="form__text">{t('support.text')}</p>
          {supportUrl && (
            <a
              className="btn btn--primary btn--md btn--block"
              href={supportUrl}
              target="_blank"
              rel="noreferrer"
            >
              <span className="btn__label">{t('support.write')}</span>
            </a>
          )}
        </div>
      )}
    </Sheet>
  );
}
