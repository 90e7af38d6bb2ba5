/** A partner's picture, or their initial on a plain circle when they have none. */
export function PartnerAvatar({ url, name, small }: { url: string | null; name: string; small?: boolean }) {
  const className = `partner-avatar${small ? ' partner-avatar--sm' : ''}`;
  if (url) return <img className={className} src={url} alt="" width={44} height={44} loading="lazy" />;
  return (
    <span className={className} aria-hidden="true">
      {(name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}
