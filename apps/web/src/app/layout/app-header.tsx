import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { IconBack } from '../../components/ui/icons';
import { useAppStore } from '../../lib/app-store';
import { loadExtraCatalogue } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import type { RouteMeta } from '../route-access';
import { Avatar } from '../../components/ui/avatar';
import { NAV_ITEMS } from './nav-items';

// Signed-in only, and after the first paint: the bell's polling stays out of the first download.
const NotificationsBell = lazy(() => import('../../features/notifications/notifications-bell.lazy'));
// The credit balance (a way to buy credits at any time) on the menu's pages, with its texts.
const CreditsChip = lazy(() =>
  Promise.all([import('../../features/credits/credits-chip.lazy'), loadExtraCatalogue('generations')]).then(
    ([module]) => module,
  ),
);

/** Titles longer than this (in characters) are set smaller, so two lines fit a phone's header. */
const LONG_TITLE = 14;

export function displayName(user: {
  firstName: string;
  lastName: string;
  username?: string;
  email?: string | null;
}) {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username || user.email || 'Mirra';
}

function parentOf(pathname: string, meta: RouteMeta): string {
  if (meta.compact) return '/settings/';
  if (pathname.startsWith('/profile-edit') || pathname.startsWith('/settings')) return '/profile/';
  return '/';
}

export function Brand() {
  return (
    <Link to="/" className="brand" aria-label="Mirra">
      <span className="brand__mark" aria-hidden="true" />
      <span className="brand__name">Mirra</span>
    </Link>
  );
}

export function AppHeader({ meta }: { meta: RouteMeta }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { isLoggedIn, user } = useSession();
  const openAuthPopup = useAppStore((s) => s.openAuthPopup);
  const isRoot = meta.bottomMenu === true;
  const goBack = () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate(parentOf(pathname, meta));
  };
  return (
    <header className={`app-header${isRoot ? ' app-header--root' : ''}`}>
      <div className="app-header__inner">
        <div className="app-header__start">
          {isRoot ? (
            <Brand />
          ) : (
            <>
              <button
                type="button"
                className="icon-btn app-header__back"
                onClick={goBack}
                aria-label={t('common.back')}
              >
                <IconBack size={22} />
              </button>
              <span className="app-header__brand-desktop">
                <Brand />
              </span>
            </>
          )}
        </div>
        {!isRoot && (
          <h1
            className={`app-header__title${t(meta.title).length > LONG_TITLE ? ' app-header__title--long' : ''}`}
            data-testid="header-title"
          >
            {t(meta.title)}
          </h1>
        )}
        <nav className="app-header__nav" aria-label={t('nav.label')}>
          {NAV_ITEMS.map(({ to, label, Icon, match }) => (
            <Link key={to} to={to} className={`top-nav__item${match(pathname) ? ' is-active' : ''}`}>
              <Icon size={18} />
              {t(label)}
            </Link>
          ))}
        </nav>
        <div className="app-header__end">
          {isLoggedIn && isRoot && (
            <Suspense fallback={null}>
              <CreditsChip />
            </Suspense>
          )}
          {isLoggedIn && (
            <Suspense fallback={null}>
              <NotificationsBell />
            </Suspense>
          )}
          {isLoggedIn ? (
            <Link
              to="/profile/"
              className="app-header__avatar"
              aria-label={t('titles.profile')}
              data-testid="header-profile"
            >
              <Avatar name={user ? displayName(user) : ''} seed={user?.uuid} size={36} />
            </Link>
          ) : (
            <Button theme="light" size="sm" onClick={() => openAuthPopup()} data-testid="header-sign-in">
              {t('auth.signIn')}
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
