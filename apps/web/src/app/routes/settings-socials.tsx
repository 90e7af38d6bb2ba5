import { useTranslation } from 'react-i18next';
import { IconChat, IconExternal, IconTelegram } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { SOCIAL_LINKS } from '../../features/settings';

export function Page() {
  const { t } = useTranslation();
  return (
    <PageFrame width="narrow" testId="socials-page">
      <p className="lead">{t('socials.text')}</p>
      <div className="list">
        <a className="list__row" href={SOCIAL_LINKS.channel} target="_blank" rel="noreferrer">
          <span className="list__icon list__icon--tg">
            <IconTelegram size={20} />
          </span>
          <span className="list__label">
            {t('socials.channel')}
            <span className="list__sub">{t('socials.channelText')}</span>
          </span>
          <IconExternal size={18} />
        </a>
        <a className="list__row" href={SOCIAL_LINKS.chat} target="_blank" rel="noreferrer">
          <span className="list__icon list__icon--tg">
            <IconChat size={20} />
          </span>
          <span className="list__label">
            {t('socials.chat')}
            <span className="list__sub">{t('socials.chatText')}</span>
          </span>
          <IconExternal size={18} />
        </a>
      </div>
    </PageFrame>
  );
}
