import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { IconSearch } from '../../components/ui/icons';
import { PageFrame, PageHeading } from '../../components/ui/page';
import { TextInput } from '../../components/ui/text-input';
import { Page as NotFound } from './not-found';

/** Feed tabs (spec §2); `top` is the recommended list the old links point to. */
export const FEED_TABS = ['top', 'new', 'subscribed', 'saved'] as const;

export function Page() {
  const { t } = useTranslation();
  const { type } = useParams();
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const tab = type === 'recommended' ? 'top' : type;
  if (!FEED_TABS.includes(tab as (typeof FEED_TABS)[number])) return <NotFound />;
  return (
    <PageFrame width="wide" testId="feed-page">
      <PageHeading title={t('feed.title')} subtitle={t('feed.subtitle')} />
      <div className="tabs" role="tablist">
        {FEED_TABS.map((name) => (
          <Link
            key={name}
            to={`/posts/${name}/${query ? `?q=${encodeURIComponent(query)}` : ''}`}
            role="tab"
            aria-selected={name === tab}
            className={`tabs__tab${name === tab ? ' is-active' : ''}`}
            replace
          >
            {t(`feed.tabs.${name}`)}
          </Link>
        ))}
      </div>
      <TextInput
        search
        theme="glass"
        value={query}
        onValueChange={(value) => setParams(value ? { q: value } : {}, { replace: true })}
        placeholder={t('home.searchPlaceholder')}
        aria-label={t('home.searchPlaceholder')}
        maxLength={100}
      />
      <EmptyState
        icon={<IconSearch size={28} />}
        title={query ? t('feed.noResults') : t(`feed.empty.${tab}`)}
        text={t('feed.emptyText')}
      />
    </PageFrame>
  );
}
