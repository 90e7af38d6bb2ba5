import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../app/layout/avatar';

interface ProfileLike {
  uuid: string;
  firstName: string;
  lastName: string;
  username: string;
  date_joined: string;
}

export function fullName(user: Pick<ProfileLike, 'firstName' | 'lastName' | 'username'>, fallback: string) {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username || fallback;
}

/** The profile header: avatar, name, handle, counts and actions. */
export function ProfileCard({
  user,
  subtitle,
  actions,
}: {
  user: ProfileLike;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const name = fullName(user, t('profile.noName'));
  const since = new Intl.DateTimeFormat(i18n.language, { month: 'long', year: 'numeric' }).format(
    new Date(user.date_joined),
  );
  return (
    <div className="profile-card" data-testid="profile-card">
      <div className="profile-card__cover" aria-hidden="true" />
      <div className="profile-card__avatar">
        <Avatar name={name} seed={user.uuid} size={88} />
      </div>
      <h1 className="profile-card__name" data-testid="profile-name">
        {name}
      </h1>
      <p className="profile-card__meta">
        {user.username ? `@${user.username} · ` : ''}
        {t('profile.since', { date: since })}
      </p>
      {subtitle && <p className="profile-card__subtitle">{subtitle}</p>}
      <div className="profile-card__stats">
        <div className="stat stat--plain">
          <span className="stat__value">0</span>
          <span className="stat__label">{t('profile.posts', { count: 0 })}</span>
        </div>
        <div className="stat stat--plain">
          <span className="stat__value">0</span>
          <span className="stat__label">{t('profile.subscribers', { count: 0 })}</span>
        </div>
        <div className="stat stat--plain">
          <span className="stat__value">0</span>
          <span className="stat__label">{t('profile.subscriptions', { count: 0 })}</span>
        </div>
      </div>
      {actions && <div className="profile-card__actions">{actions}</div>}
    </div>
  );
}
