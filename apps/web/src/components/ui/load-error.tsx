import { useTranslation } from 'react-i18next';
import { describeError } from '../../lib/error-messages';
import { Alert } from './alert';
import { Button } from './button';

/** Something could not be read (a page, a post, a list): what went wrong, and a retry. */
export function LoadError({ query }: { query: { error: unknown; refetch(): Promise<unknown> } }) {
  const { t } = useTranslation();
  return (
    <div className="stack">
      <Alert>{describeError(t, query.error).alert}</Alert>
      <Button theme="light" size="sm" onClick={() => void query.refetch()}>
        {t('common.retry')}
      </Button>
    </div>
  );
}
