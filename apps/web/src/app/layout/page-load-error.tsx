import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { IconAlert } from '../../components/ui/icons';
import { reportError } from '../../lib/error-reporting';

/**
 * Shown when a page could not load (a failed chunk after a deploy, usually) or broke while
 * rendering: offers a reload. The error is reported (unless it is a plain "not found").
 */
export function PageLoadError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const isNotFound = isRouteErrorResponse(error) && error.status === 404;
  useEffect(() => {
    if (!isNotFound) reportError(error);
  }, [error, isNotFound]);
  return (
    <div className="page page--center">
      <EmptyState
        icon={<IconAlert size={32} />}
        title={isNotFound ? t('notFound.title') : t('loadError.title')}
        text={isNotFound ? t('notFound.text') : t('loadError.text')}
        action={
          <Button theme="primary" onClick={() => window.location.reload()}>
            {t('loadError.reload')}
          </Button>
        }
      />
    </div>
  );
}
