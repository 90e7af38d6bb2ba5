import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { IconCompass } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';

export function Page() {
  const { t } = useTranslation();
  return (
    <PageFrame testId="not-found-page" className="page--center">
      <EmptyState
        icon={<IconCompass size={30} />}
        title={t('notFound.title')}
        text={t('notFound.text')}
        action={
          <ButtonLink to="/" theme="primary">
            {t('common.toHome')}
          </ButtonLink>
        }
      />
    </PageFrame>
  );
}
