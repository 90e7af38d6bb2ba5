import { Avatar } from './avatar';
import './avatar.css';

/** A person's picture, or their initials on a gradient while they have none. */
export function UserAvatar({
  name,
  uuid,
  avatarUrl,
  size,
}: {
  name: string;
  uuid: string;
  avatarUrl: string | null;
  size: number;
}) {
  if (!avatarUrl) return <Avatar name={name} seed={uuid} size={size} />;
  return (
    <img
      src={avatarUrl}
      alt=""
      width={size}
      height={size}
      className="avatar avatar--photo"
      loading="lazy"
      decoding="async"
    />
  );
}
