import { useParams } from 'react-router';
import { PageFrame } from '../../components/ui/page';
import { AdminConsole, type AdminSection } from '../../features/admin';

/** /admin/ (home), /admin/reports/, /admin/users/, /admin/users/<uuid>/, /admin/generations/, /admin/payments/, /admin/payouts/, /admin/audit/, /admin/pricing/, /admin/packs/, /admin/health/. */
function sectionOf(rest: string): { section: AdminSection; uuid?: string } {
  const [first, second] = rest.split('/').filter(Boolean);
  if (first === 'users') return second ? { section: 'user', uuid: second } : { section: 'users' };
  if (first === 'generations') return { section: 'generations' };
  if (first === 'reports') return { section: 'reports' };
  if (first === 'payments') return { section: 'payments' };
  if (first === 'payouts') return { section: 'payouts' };
  if (first === 'audit') return { section: 'audit' };
  if (first === 'pricing') return { section: 'pricing' };
  if (first === 'packs') return { section: 'photoPacks' };
  if (first === 'health') return { section: 'health' };
  return { section: 'home' };
}

/** The staff console (/admin/…): its own lazily loaded chunk, never part of the first page. */
export function Page() {
  const { section, uuid } = sectionOf(useParams()['*'] ?? '');
  return (
    <PageFrame width="normal" testId="admin-page">
      <AdminConsole section={section} userUuid={uuid} />
    </PageFrame>
  );
}
