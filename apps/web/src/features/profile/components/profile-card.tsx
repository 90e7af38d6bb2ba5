import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/ui/avatar';
import { formatDay } from '../../../lib/dates';
import '../profile.css';

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

export interface ProfileCounts {
  posts: number;
  subscribers: number;
  subscriptions: number;
}

/** The profile header: avatar, name, handle, counts (a dash until they are known) and actions. */
export function ProfileCard({
  user,
  subtitle,
  actions,
  counts,
  avatar,
}: {
  user: ProfileLike;
  subtitle?: ReactNode;
  actions?: ReactNode;
  counts?: ProfileCounts | null;
  /** A picture instead of the initials. */
  avatar?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const name = fullName(user, t('profile.noName'));
  const since = formatDay(user.date_joined, i18n.language);
  return (
    <div className="profile-card" data-testid="profile-card">
      <div className="profile-card__cover" aria-hidden="true" />
      <div className="profile-card__avatar">
        {avatar ?? <Avatar name={name} seed={user.uuid} size={88} />}
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
        {(['posts', 'subscribers', 'subscriptions'] as const).map((kind) => (
          <div key={kind} className="stat stat--plain" data-testid={`profile-count-${kind}`}>
            <span className="stat__value">{counts ? counts[kind] : '–'}</span>
            <span className="stat__label">{t(`profile.${kind}`, { count: counts?.[kind] ?? 0 })}</span>
          </div>
        ))}
      </div>
      {actions && <div className="profile-card__actions">{actions}</div>}
    </div>
  );
}
