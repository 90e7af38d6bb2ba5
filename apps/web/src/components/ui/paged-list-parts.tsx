import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../lib/error-messages';
import { Alert } from './alert';
import { Button } from './button';
import { Spinner } from './spinner';

/** The parts of TanStack Query's infinite query these pieces read. */
interface PagedList {
  error: unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage(): Promise<unknown>;
}

/**
 * The end of a paged list: the sentinel that loads more as it comes into view (with a button
 * for the same), a spinner while a page loads, and after a failed page the error with a retry of
 * that page — the pages already shown stay, and the sentinel rests until the retry.
 */
export function ListMore({
  list,
  sentinel,
  className = 'center',
  testId,
}: {
  list: PagedList;
  sentinel: Ref<HTMLDivElement>;
  className?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (!list.hasNextPage) return null;
  if (list.isFetchNextPageError && !list.isFetchingNextPage) {
    return (
      <div className={`stack ${className}`} data-testid={testId}>
        <Alert>{describeError(t, list.error).alert}</Alert>
        <Button theme="light" size="sm" onClick={() => void list.fetchNextPage()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  }
  return (
    <div ref={sentinel} className={className} data-testid={testId}>
      {list.isFetchingNextPage ? (
        <Spinner size={24} label={t('common.loading')} />
      ) : (
        <Button theme="light" size="sm" onClick={() => void list.fetchNextPage()}>
          {t('common.more')}
        </Button>
      )}
    </div>
  );
}
