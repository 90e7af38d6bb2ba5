import './avatar.css';

/** Initials on a gradient: the avatar until photos arrive. */
export function Avatar({ name, size = 36, seed = '' }: { name: string; size?: number; seed?: string }) {
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]!.toUpperCase())
      .join('') || 'M';
  let hash = 0;
  for (const char of seed || name) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return (
    <span
      className="avatar"
      style={{ width: size, height: size, fontSize: size * 0.38, ['--avatar-hue' as string]: String(hash) }}
      aria-hidden="true"
    >
      {initials}
    </span>
  );
}
