import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, ScrollRestoration, useBlocker, useLocation } from 'react-router';
import { LoadingOverlay } from '../../components/ui/loading-overlay';
import { TopNotification } from '../../components/ui/top-notification';
import { useAppStore } from '../../lib/app-store';
import { useSession } from '../../lib/session';
import { decideAccess } from '../route-access';
import { routeMetaFor } from '../route-table';
import { AppHeader } from './app-header';
import { BottomNav } from './bottom-nav';
import { KeepAliveOutlet } from './keep-alive-outlet';
import { SignInRequired } from './sign-in-required';
import { useRouteMeta } from './use-route-meta';

const SignInPopup = lazy(() => import('../../features/auth/sign-in-popup.lazy'));
const PaymentReturn = lazy(() => import('../../features/credits/payment-return.lazy'));

export const TITLE_SUFFIX = 'Mirra';

/**
 * The frame around every page and the one place where the app's general behaviour lives: access
 * rules, page titles, scroll restoration, kept-alive pages, the menu, banners and the overlay.
 */
export function AppShell() {
  const { t, i18n } = useTranslation();
  const meta = useRouteMeta();
  const location = useLocation();
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  const { authPopup, openAuthPopup } = useAppStore();
  const decision = decideAccess(meta.access, isLoggedIn);
  // Once opened, the popup stays mounted so it can play its closing animation.
  const [popupMounted, setPopupMounted] = useState(false);
  if (authPopup && !popupMounted) setPopupMounted(true);
  // Only a return from a checkout (`?payment=`) loads its sheet; it then stays mounted to close softly.
  const [paymentReturnMounted, setPaymentReturnMounted] = useState(false);
  if (!paymentReturnMounted && new URLSearchParams(location.search).has('payment'))
    setPaymentReturnMounted(true);

  // Login-required for a guest: the popup opens and the navigation is cancelled.
  const blocker = useBlocker(
    ({ nextLocation }) =>
      decideAccess(routeMetaFor(nextLocation.pathname).access, useSession.getState().isLoggedIn) ===
      'sign-in',
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    openAuthPopup(blocker.location.pathname + blocker.location.search);
    blocker.reset();
  }, [blocker, openAuthPopup]);

  // Opened directly (or the session was lost) on a login-required page: the popup, over a locked frame.
  useEffect(() => {
    if (decision === 'sign-in') openAuthPopup(location.pathname + location.search);
  }, [decision, location.pathname, location.search, openAuthPopup]);

  useEffect(() => {
    const title = t(meta.title);
    document.title =
      title && meta.path !== '/' ? `${title} · ${TITLE_SUFFIX}` : `${TITLE_SUFFIX} · ${t('titles.home')}`;
  }, [meta.title, meta.path, t, i18n.language, location.pathname]);

  const classes = ['app', meta.bottomMenu ? 'app--with-menu' : '', meta.compact ? 'app--compact' : '']
    .filter(Boolean)
    .join(' ');

  return (
    <div className={classes}>
      <AppHeader meta={meta} />
      <main className="app-main" id="main">
        {meta.heading && decision === 'allow' && <h1 className="desktop-title">{t(meta.title)}</h1>}
        {decision === 'home' ? (
          <Navigate to="/" replace />
        ) : decision === 'sign-in' && !meta.guestView ? (
          <SignInRequired />
        ) : (
          <KeepAliveOutlet />
        )}
      </main>
      {meta.bottomMenu && <BottomNav />}
      <TopNotification />
      {paymentReturnMounted && (
        <Suspense fallback={null}>
          <PaymentReturn />
        </Suspense>
      )}
      <LoadingOverlay />
      {popupMounted && (
        <Suspense fallback={null}>
          <SignInPopup />
        </Suspense>
      )}
      <ScrollRestoration />
    </div>
  );
}
