import { useState, type FormEvent } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { TextInput } from '../../../components/ui/text-input';
import { formatDateTime } from '../../../lib/dates';
import { adminApi, adminKeys, type AuditFilter } from '../api/admin.api';

const EMPTY: AuditFilter = { staff: '', action: '', target: '', from: '', to: '' };
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every staff action, newest first: filter by staff member, action, target and days. */
export function AuditLog() {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState<AuditFilter>(EMPTY);
  const [filter, setFilter] = useState<AuditFilter>(EMPTY);
  const [staffError, setStaffError] = useState<string | null>(null);
  const log = useInfiniteQuery({
    queryKey: adminKeys.audit(filter),
    queryFn: ({ pageParam }) => adminApi.audit(filter, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const field = (name: keyof AuditFilter) => ({
    value: draft[name],
    onValueChange: (value: string) => setDraft((d) => ({ ...d, [name]: value })),
    'data-testid': `audit-${name}`,
  });
  function apply(event: FormEvent) {
    event.preventDefault();
    const staff = draft.staff.trim();
    if (staff && !UUID_PATTERN.test(staff)) {
      setStaffError(t('admin.audit.staffInvalid'));
      return;
    }
    setStaffError(null);
    setFilter({ ...draft, staff });
  }
  const entries = log.data?.pages.flatMap((page) => page.results) ?? [];
  return (
    <div className="stack" data-testid="admin-audit">
      <form className="admin__card admin-audit__filters" noValidate onSubmit={apply}>
        <TextInput title={t('admin.audit.staff')} {...field('staff')} error={staffError} />
        <TextInput title={t('admin.audit.action')} placeholder="credits." {...field('action')} />
        <TextInput title={t('admin.audit.target')} {...field('target')} />
        <TextInput title={t('admin.audit.from')} type="date" {...field('from')} />
        <TextInput title={t('admin.audit.to')} type="date" {...field('to')} />
        <div className="admin__buttons">
          <Button theme="primary" size="sm" type="submit" data-testid="audit-apply">
            {t('admin.audit.apply')}
          </Button>
          <Button
            theme="light"
            size="sm"
            onClick={() => {
              setDraft(EMPTY);
              setFilter(EMPTY);
              setStaffError(null);
            }}
          >
            {t('admin.audit.clear')}
          </Button>
        </div>
      </form>
      {log.isPending && <Spinner size={28} />}
      {log.isError && <LoadError query={log} />}
      {log.isSuccess && entries.length === 0 && <p className="admin__meta">{t('admin.audit.empty')}</p>}
      <ul className="admin__list" data-testid="audit-entries">
        {entries.map((entry) => (
          <li key={entry.id} className="admin__card admin-audit__entry" data-action={entry.action}>
            <div className="admin__badges">
              <span className="admin__badge">{entry.action}</span>
              <span className="admin__meta">{formatDateTime(entry.created_at, i18n.language)}</span>
            </div>
            {entry.reason && <p className="admin__prompt">{entry.reason}</p>}
            <dl className="admin__dl">
              <dt>{t('admin.audit.by')}</dt>
              <dd className="admin__mono">
                {entry.staff_uuid ? (
                  <Link to={`/admin/users/${entry.staff_uuid}/`}>{entry.staff_uuid}</Link>
                ) : (
                  t('admin.audit.commandLine')
                )}
              </dd>
              <dt>{t('admin.audit.target')}</dt>
              <dd className="admin__mono">
                {entry.target_kind === 'user' ? (
                  <Link to={`/admin/users/${entry.target_id}/`}>{entry.target_id}</Link>
                ) : (
                  `${entry.target_kind} · ${entry.target_id}`
                )}
              </dd>
            </dl>
            <details>
              <summary className="admin__meta">{t('admin.audit.change')}</summary>
              <pre className="admin-audit__json">
                {JSON.stringify({ before: entry.before, after: entry.after }, null, 2)}
              </pre>
            </details>
          </li>
        ))}
      </ul>
      {log.hasNextPage && (
        <Button
          theme="light"
          size="sm"
          loading={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
          data-testid="audit-more"
        >
          {t('admin.audit.more')}
        </Button>
      )}
    </div>
  );
}
