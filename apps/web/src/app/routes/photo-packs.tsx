import { useTranslation } from 'react-i18next';
import { PageFrame, PageHeading } from '../../components/ui/page';
import { PhotoPackCatalogue } from '../../features/generations';

/** The photo pack catalogue (/packs/). */
export function Page() {
  const { t } = useTranslation();
  return (
    <PageFrame width="narrow" testId="photo-packs-page">
      <PageHeading title={t('packs.title')} subtitle={t('packs.subtitle')} />
      <PhotoPackCatalogue />
    </PageFrame>
  );
}
