import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { TextInput } from '../../../components/ui/text-input';
import { adminApi, adminKeys } from '../api/admin.api';

/** Find a person by email (its start), Telegram id or uuid; the query lives in the address. */
export function UserSearch() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [typed, setTyped] = useState(q);
  const found = useQuery({
    queryKey: adminKeys.users(q),
    queryFn: () => adminApi.searchUsers(q),
    enabled: q.trim().length > 0,
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setParams(typed.trim() ? { q: typed.trim() } : {});
  }

  return (
    <div className="stack">
      <form className="admin__search" onSubmit={onSubmit} role="search">
        <TextInput
          search
          value={typed}
          onValueChange={setTyped}
          placeholder={t('admin.users.searchHint')}
          aria-label={t('admin.users.searchHint')}
          data-testid="admin-user-search"
        />
        <Button type="submit" size="sm" data-testid="admin-user-search-submit">
          {t('admin.users.search')}
        </Button>
      </form>
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
