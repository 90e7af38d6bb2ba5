import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconWallet } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { ListMore } from '../../../components/ui/paged-list-parts';
import { Sheet } from '../../../components/ui/sheet';
import { Spinner } from '../../../components/ui/spinner';
import { creditKeys, creditsApi } from '../api/credits.api';
import { useLoadMoreOnView } from '../../../lib/use-load-more-on-view';
import { formatDateTime } from '../../../lib/dates';
import { numberFormat } from '../../../lib/locale-fallback';
import '../credits.css';

/** Credit history: every ledger entry, newest first, loaded page by page as it scrolls. */
export function CreditHistorySheet({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const history = useInfiniteQuery({
    queryKey: creditKeys.history(),
    queryFn: ({ pageParam }) => creditsApi.history(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
    enabled: open,
  });
  const sentinel = useLoadMoreOnView(history);
  const entries = history.data?.pages.flatMap((page) => page.results) ?? [];
  const number = numberFormat(i18n.language, { signDisplay: 'always' });
  return (
    <Sheet open={open} onClose={onClose} title={t('credits.historyTitle')}>
      <div className="stack" data-testid="credit-history">
        {history.isPending ? (
          <div className="center">
            <Spinner size={24} label={t('common.loading')} />
          </div>
        ) : !history.data ? (
          <LoadError query={history} />
        ) : entries.length === 0 ? (
          <EmptyState icon={<IconWallet size={26} />} title={t('messages.noTransactions')} />
        ) : (
          <ul className="list history-list">
            {entries.map((entry) => (
              <li key={entry.id} className="list__row history-list__row" data-testid="credit-entry">
                <span className="list__label">
                  {t(`credits.kinds.${entry.kind}`)}
                  <span className="list__sub">{formatDateTime(entry.created_at, i18n.language)}</span>
                </span>
                <span className="history-list__amounts">
                  <span className={`history-list__delta${entry.delta > 0 ? ' is-in' : ''}`}>
                    {number.format(entry.delta)}
                  </span>
                  <span className="list__sub">{t('messages.credits', { count: entry.balance_after })}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
        <ListMore list={history} sentinel={sentinel} />
      </div>
    </Sheet>
  );
}
