import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { NAV_ITEMS } from './nav-items';

export function BottomNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <nav className="bottom-nav" aria-label={t('nav.label')}>
      {NAV_ITEMS.map(({ to, label, Icon, match }) => {
        const active = match(pathname);
        const isCreate = to === '/create/';
        return (
          <Link
            key={to}
            to={to}
            className={`bottom-nav__item${active ? ' is-active' : ''}${isCreate ? ' bottom-nav__item--create' : ''}`}
            aria-current={active ? 'page' : undefined}
          >
            <span className="bottom-nav__icon">
              <Icon size={isCreate ? 24 : 22} />
            </span>
            <span className="bottom-nav__label">{t(label)}</span>
          </Link>
        );
      })}
    </nav>
  );
}
