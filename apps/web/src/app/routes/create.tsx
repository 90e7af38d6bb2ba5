import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PHOTO_PACK_MODE } from '@mirra/contracts';
import { IconChevron, IconImage } from '../../components/ui/icons';
import { PageFrame, PageHeading } from '../../components/ui/page';
import { ModeCard, CREATE_MODES, useModeOffered } from '../../features/generations';
import './create.css';

/** Create: the four modes, each with its description. */
export function Page() {
  const { t } = useTranslation();
  const offered = useModeOffered();
  return (
    <PageFrame testId="create-page">
      <PageHeading title={t('create.title')} subtitle={t('create.subtitle')} />
      <div className="mode-list">
        {offered(PHOTO_PACK_MODE) && (
          // Packs are chosen in their catalogue, not on the create form.
          <Link to="/packs/" className="mode-card" data-testid="mode-photo_pack">
            <span className="mode-card__art" style={{ background: 'var(--gradient-brand)' }}>
              <IconImage size={28} />
            </span>
            <span className="mode-card__body">
              <span className="mode-card__title">{t('modes.photo_pack.title')}</span>
              <span className="mode-card__text">{t('modes.photo_pack.description')}</span>
            </span>
            <IconChevron size={18} className="mode-card__chevron" />
          </Link>
        )}
        {CREATE_MODES.filter(offered).map((mode) => (
          <ModeCard key={mode} mode={mode} />
        ))}
      </div>
      <p className="muted-note">{t('create.note')}</p>
    </PageFrame>
  );
}
