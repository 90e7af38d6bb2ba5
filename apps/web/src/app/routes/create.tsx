import { useTranslation } from 'react-i18next';
import { PHOTO_PACK_MODE } from '@mirra/contracts';
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
        {/* Packs are chosen in their catalogue, not on the create form. */}
        {offered(PHOTO_PACK_MODE) && <ModeCard mode={PHOTO_PACK_MODE} to="/packs/" />}
        {CREATE_MODES.filter(offered).map((mode) => (
          <ModeCard key={mode} mode={mode} />
        ))}
      </div>
      <p className="muted-note">{t('create.note')}</p>
    </PageFrame>
  );
}
