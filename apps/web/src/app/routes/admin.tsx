import { useLocation, useParams } from 'react-router';
import { PageFrame } from '../../components/ui/page';
import { AdminConsole, type AdminSection } from '../../features/admin';

function sectionOf(pathname: string, uuid: string | undefined): AdminSection {
  if (pathname.startsWith('/admin/users/')) return uuid ? 'user' : 'users';
  if (pathname.startsWith('/admin/generations/')) return 'generations';
  return 'reports';
}

/** The staff console (/admin/…): its own lazily loaded chunk, never part of the first page. */
export function Page() {
  const { uuid } = useParams();
  const { pathname } = useLocation();
  return (
    <PageFrame width="normal" testId="admin-page">
      <AdminConsole section={sectionOf(pathname, uuid)} userUuid={uuid} />
    </PageFrame>
  );
}
