import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TAdminReportedPost } from '@mirra/contracts';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconCheck } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { useAppStore } from '../../../lib/app-store';
import { adminApi, adminKeys } from '../api/admin.api';
import { ReasonActions } from './reason-actions';
import { TakedownDeadline } from './takedown-deadlines';

/**
 * Posts hidden by reports or takedown requests, or with open ones: urgent takedowns first by
 * their deadline, then "not consented" ones (the server's order).
 */
export function ReportQueue({ canBan }: { canBan: boolean }) {
  const { t } = useTranslation();
  const queue = useQuery({ queryKey: adminKeys.reports(), queryFn: adminApi.reports });
  if (queue.isPending) return <Spinner size={28} />;
  if (queue.isError) return <LoadError query={queue} />;
  if (queue.data.results.length === 0) {
    return <EmptyState icon={<IconCheck size={28} />} title={t('admin.reports.empty')} />;
  }
  return (
    <ul className="admin__list" data-testid="admin-reports">
      {queue.data.results.map((entry) => (
        <ReportedPostCard key={entry.post.uuid} entry={entry} canBan={canBan} />
      ))}
    </ul>
  );
}

function ReportedPostCard({ entry, canBan }: { entry: TAdminReportedPost; canBan: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { post } = entry;
  const preview = post.image.variants.find((variant) => variant.width >= 256) ?? post.image.variants.at(-1);
  const reasons = new Map<string, number>();
  for (const report of entry.reports) reasons.set(report.reason, (reasons.get(report.reason) ?? 0) + 1);
  const author =
    [post.author.firstName, post.author.lastName].filter(Boolean).join(' ') || post.author.username || '—';
  const done = (id: string) => {
    useAppStore.getState().showTopinfo('success', t(`admin.reports.done.${id}`));
    void client.invalidateQueries({ queryKey: adminKeys.reports() });
  };
  return (
    <li
      className="admin__card"
      data-testid="admin-report"
      data-post={post.uuid}
      data-deadline={entry.deadline_state ?? undefined}
    >
      <div className="admin__post">
        {preview && (
          <img className="admin__thumb" src={preview.url} alt={post.title || post.prompt} loading="lazy" />
        )}
        <div className="admin__post-text">
          <div className="admin__badges">
            <span className={`admin__badge admin__badge--${post.status}`}>
              {t(`admin.reports.status.${post.status}`)}
            </span>
            {entry.not_consented && (
              <span className="admin__badge admin__badge--urgent">{t('admin.reports.notConsented')}</span>
            )}
            {entry.takedowns.length > 0 && (
              <span className="admin__badge admin__badge--urgent">{t('admin.reports.takedown')}</span>
            )}
          </div>
          {entry.deadline_at && entry.deadline_state && (
            <TakedownDeadline at={entry.deadline_at} state={entry.deadline_state} />
          )}
          {post.title && <strong>{post.title}</strong>}
          <p className="admin__prompt">{post.prompt}</p>
          <p className="admin__meta">
            {author}
            {entry.author_email ? ` · ${entry.author_email}` : ''}
            {entry.author_banned ? ` · ${t('admin.users.banned')}` : ''}
          </p>
          <ul className="admin__reasons">
            {[...reasons].map(([reason, count]) => (
              <li key={reason}>
                {t(`social.report.reasons.${reason}`)} × {count}
              </li>
            ))}
          </ul>
          {entry.takedowns.map((takedown) => (
            <div key={takedown.received_at + takedown.contact_email} className="admin__takedown">
              <strong>{t(`takedown.categories.${takedown.category}`)}</strong>
              <span className="admin__meta">
                {t('admin.reports.contact')}: {takedown.contact_email}
              </span>
              {takedown.details && <blockquote className="admin__comment">{takedown.details}</blockquote>}
            </div>
          ))}
          {entry.reports
            .filter((report) => report.comment)
            .map((report) => (
              <blockquote key={report.reporter_uuid} className="admin__comment">
                {report.comment}
              </blockquote>
            ))}
        </div>
      </div>
      <ReasonActions
        testId="report-actions"
        onDone={done}
        actions={[
          {
            id: 'restore',
            label: t('admin.reports.restore'),
            theme: 'light',
            run: (reason) => adminApi.restorePost(post.uuid, reason),
          },
          {
            id: 'remove',
            label: t('admin.reports.remove'),
            theme: 'danger',
            confirm: t('admin.reports.removeConfirm'),
            run: (reason) => adminApi.removePost(post.uuid, reason),
          },
          ...(canBan
            ? [
                {
                  id: 'removeAndBan',
                  label: t('admin.reports.removeAndBan'),
                  theme: 'danger' as const,
                  confirm: t('admin.reports.removeAndBanConfirm'),
                  run: (reason: string) => adminApi.removePostAndBan(post.uuid, reason),
                },
              ]
            : []),
        ]}
      />
    </li>
  );
}
