import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/dates';
import { adminApi, adminKeys } from '../api/admin.api';
import { StaffSearchForm, useAddressQuery } from './staff-search-form';
import { Order } from './user-money';

/**
 * Every payment, newest first, or those one term finds: an order's uuid, the provider's payment
 * id, or the buyer's email, Telegram id or uuid. The term lives in the address.
 */
export function PaymentSearch() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const { q } = useAddressQuery();
  const found = useInfiniteQuery({
    queryKey: adminKeys.payments(q),
    queryFn: ({ pageParam }) => adminApi.searchPayments(q, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const when = (iso: string | null) => (iso ? formatDateTime(iso, i18n.language) : '—');

  const results = found.data?.pages.flatMap((page) => page.results) ?? [];
  return (
    <div className="stack" data-testid="admin-payments">
      <StaffSearchForm
        hint={t('admin.payments.searchHint')}
        submitLabel={t('admin.payments.search')}
        testId="admin-payment-search"
      />
      {found.isPending && <Spinner size={28} />}
      {found.isError && <LoadError query={found} />}
      {found.isSuccess && results.length === 0 && <EmptyState title={t('admin.payments.none')} />}
      <ul className="admin__list" data-testid="admin-orders">
        {results.map(({ order, buyer }) => (
          <Order
            key={order.uuid}
            order={order}
            when={when}
            onRefunded={() => void client.invalidateQueries({ queryKey: adminKeys.payments(q) })}
          >
            <p className="admin__meta">
              {t('admin.payments.buyer')}{' '}
              <Link to={`/admin/users/${buyer.uuid}/`} data-testid="payment-buyer">
                {buyer.email ?? (buyer.telegram_id ? `Telegram ${buyer.telegram_id}` : buyer.uuid)}
              </Link>
            </p>
          </Order>
        ))}
      </ul>
      {found.hasNextPage && (
        <Button
          theme="light"
          size="sm"
          loading={found.isFetchingNextPage}
          onClick={() => void found.fetchNextPage()}
          data-testid="payments-more"
        >
          {t('admin.payments.more')}
        </Button>
      )}
    </div>
  );
}
