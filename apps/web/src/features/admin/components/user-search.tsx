import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { adminApi, adminKeys } from '../api/admin.api';
import { StaffSearchForm, useAddressQuery } from './staff-search-form';

/** Find a person by email (its start), Telegram id or uuid; the query lives in the address. */
export function UserSearch() {
  const { t } = useTranslation();
  const { q } = useAddressQuery();
  const found = useQuery({
    queryKey: adminKeys.users(q),
    queryFn: () => adminApi.searchUsers(q),
    enabled: q.trim().length > 0,
  });

  return (
    <div className="stack">
      <StaffSearchForm
        hint={t('admin.users.searchHint')}
        submitLabel={t('admin.users.search')}
        testId="admin-user-search"
      />
      {q && found.isPending && <Spinner size={28} />}
      {found.isError && <LoadError query={found} />}
      {found.data && found.data.results.length === 0 && <EmptyState title={t('admin.users.none')} />}
      {found.data && found.data.results.length > 0 && (
        <ul className="admin__list">
          {found.data.results.map((user) => (
            <li key={user.uuid}>
              <Link
                className="admin__card admin__row"
                to={`/admin/users/${user.uuid}/`}
                data-testid="admin-user-row"
              >
                <span>
                  <strong>
                    {[user.first_name, user.last_name].filter(Boolean).join(' ') || user.username || '—'}
                  </strong>
                  <span className="admin__meta">
                    {user.email ?? ''}
                    {user.telegram_id ? ` · Telegram ${user.telegram_id}` : ''}
                  </span>
                </span>
                {user.banned && (
                  <span className="admin__badge admin__badge--hidden">{t('admin.users.banned')}</span>
                )}
                {user.staff_role && (
                  <span className="admin__badge">{t(`admin.roles.${user.staff_role}`)}</span>
                )}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
