import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TTakedownDeadlineState } from '@mirra/contracts';
import { adminApi, adminKeys } from '../api/admin.api';

/** A takedown's deadline as staff see it: the date and time, and whether it is near or missed. */
export function TakedownDeadline({ at, state }: { at: string; state: TTakedownDeadlineState }) {
  const { t, i18n } = useTranslation();
  const date = new Date(at).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <p className={`admin__deadline admin__deadline--${state}`} data-testid="takedown-deadline">
      <strong>{t(`admin.reports.deadlineState.${state}`)}</strong> · {t('admin.reports.deadline', { date })}
    </p>
  );
}

/**
 * The console home's warning: takedowns whose deadline is near (under 12 hours left) or missed,
 * from the review queue the server orders by deadline. Nothing is shown when none is.
 */
export function TakedownDeadlines() {
  const { t } = useTranslation();
  const queue = useQuery({ queryKey: adminKeys.reports(), queryFn: adminApi.reports });
  const due = (queue.data?.results ?? []).filter(
    (entry) => entry.deadline_state === 'near' || entry.deadline_state === 'missed',
  );
  if (due.length === 0) return null;
  return (
    <section className="admin__card admin__deadlines" data-testid="takedown-deadlines">
      <h2 className="admin__deadlines-title">{t('admin.reports.deadlinesTitle')}</h2>
      <p className="admin__meta">{t('admin.reports.deadlinesText')}</p>
      <ul className="admin__deadlines-list">
        {due.map((entry) => (
          <li key={entry.post.uuid} data-post={entry.post.uuid}>
            <span className="admin__deadlines-post">
              {entry.post.title || entry.post.prompt || entry.post.uuid}
            </span>
            <TakedownDeadline at={entry.deadline_at!} state={entry.deadline_state!} />
          </li>
        ))}
      </ul>
      <Link to="/admin/reports/" className="link">
        {t('admin.reports.openQueue')}
      </Link>
    </section>
  );
}
