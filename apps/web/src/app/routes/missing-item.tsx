import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { PageFrame } from '../../components/ui/page';

/** The frame of a page about one item (post, model, result, invoice) that is not there to show. */
export function MissingItem({
  icon,
  title,
  text,
  testId,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <PageFrame testId={testId} className="page--center">
      <EmptyState
        icon={icon}
        title={title}
        text={text}
        action={
          <ButtonLink to="/create/" theme="primary">
            {t('home.create')}
          </ButtonLink>
        }
      />
    </PageFrame>
  );
}
