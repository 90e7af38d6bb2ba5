import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import type { TStaffRole } from '@mirra/contracts';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconShield } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-error';
import { adminApi, adminKeys } from '../api/admin.api';
import { useAdminCatalogue } from '../admin-catalogue';
import { AuditLog } from './audit-log';
import { Dashboard } from './dashboard';
import { FailedGenerations } from './failed-generations';
import { Health } from './health';
import { PaymentSearch } from './payment-search';
import { PayoutQueue } from './payout-queue';
import { PhotoPacksEditor } from './photo-packs-editor';
import { PricingEditor } from './pricing-editor';
import '../pricing.css';
import { ReportQueue } from './report-queue';
import { TakedownDeadlines } from './takedown-deadlines';
import { UserDetail } from './user-detail';
import { UserSearch } from './user-search';
import '../admin.css';

/** `home` is the dashboard for admins and the reports queue for moderators. */
export type AdminSection =
  | 'home'
  | 'health'
  | 'reports'
  | 'users'
  | 'user'
  | 'generations'
  | 'payments'
  | 'payouts'
  | 'audit'
  | 'pricing'
  | 'photoPacks';

const SECTIONS: Array<{ to: string; key: string; level: TStaffRole }> = [
  { to: '/admin/', key: 'admin.nav.home', level: 'admin' },
  { to: '/admin/health/', key: 'admin.nav.health', level: 'admin' },
  { to: '/admin/reports/', key: 'admin.nav.reports', level: 'moderator' },
  { to: '/admin/users/', key: 'admin.nav.users', level: 'admin' },
  { to: '/admin/generations/', key: 'admin.nav.generations', level: 'admin' },
  { to: '/admin/payments/', key: 'admin.nav.payments', level: 'admin' },
  { to: '/admin/payouts/', key: 'admin.nav.payouts', level: 'admin' },
  { to: '/admin/audit/', key: 'admin.nav.audit', level: 'admin' },
  { to: '/admin/pricing/', key: 'admin.nav.pricing', level: 'admin' },
  { to: '/admin/packs/', key: 'admin.nav.photoPacks', level: 'admin' },
];

/**
 * The staff console: which sections a staff member sees follows their level, read from the
 * server (`/admin/me`). Anyone else is told the page does not exist, as the server tells them.
 */
export function AdminConsole({ section, userUuid }: { section: AdminSection; userUuid?: string }) {
  const { t } = useTranslation();
  const texts = useAdminCatalogue();
  const me = useQuery({ queryKey: adminKeys.me(), queryFn: adminApi.me, retry: false });
  if (texts.failed) {
    return (
      <Button theme="light" size="sm" onClick={texts.retry}>
        {t('common.retry')}
      </Button>
    );
  }
  if (me.isPending || !texts.ready) {
    return (
      <div className="admin__loading">
        <Spinner size={28} />
      </div>
    );
  }
  if (me.isError) {
    if (me.error instanceof ApiError && me.error.status === 404) {
      return <EmptyState icon={<IconShield size={28} />} title={t('admin.notStaff')} />;
    }
    return <LoadError query={me} />;
  }
  const role = me.data.role;
  const isAdmin = role === 'admin';
  return (
    <div className="admin stack" data-testid="admin-console" data-role={role}>
      <nav className="admin__nav" aria-label={t('titles.admin')}>
        {SECTIONS.filter((entry) => isAdmin || entry.level === 'moderator').map((entry) => (
          <NavLink
            key={entry.to}
            to={entry.to}
            end
            className={({ isActive }) => `admin__tab${isActive ? ' is-active' : ''}`}
          >
            {t(entry.key)}
          </NavLink>
        ))}
        <span className="admin__role">{t(`admin.roles.${role}`)}</span>
      </nav>
      {section === 'home' && <TakedownDeadlines />}
      {isAdmin && section === 'home' && <Dashboard />}
      {isAdmin && section === 'health' && <Health />}
      {(section === 'reports' || (!isAdmin && section === 'home')) && <ReportQueue canBan={isAdmin} />}
      {isAdmin && section === 'users' && <UserSearch />}
      {isAdmin && section === 'user' && userUuid && <UserDetail uuid={userUuid} />}
      {isAdmin && section === 'generations' && <FailedGenerations />}
      {isAdmin && section === 'payments' && <PaymentSearch />}
      {isAdmin && section === 'payouts' && <PayoutQueue />}
      {isAdmin && section === 'audit' && <AuditLog />}
      {isAdmin && section === 'pricing' && <PricingEditor />}
      {isAdmin && section === 'photoPacks' && <PhotoPacksEditor />}
      {!isAdmin && section !== 'reports' && section !== 'home' && (
        <EmptyState title={t('admin.adminsOnly')} />
      )}
    </div>
  );
}
