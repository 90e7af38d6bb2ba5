import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { POST_SEARCH_MAX_LENGTH } from '@mirra/contracts';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconBookmark, IconCompass, IconSearch, IconUsers } from '../../../components/ui/icons';
import { PageHeading } from '../../../components/ui/page';
import { TextInput } from '../../../components/ui/text-input';
import { useScrollHint } from '../../../components/ui/use-scroll-hint';
import { useAppStore } from '../../../lib/app-store';
import { useSession } from '../../../lib/session';
import { feedListQuery } from '../feed-query';
import { emptyMessageKey, FEED_TABS, isPersonalTab, routeOfTab, type FeedTab } from '../post-tabs';
import { FeedPostActions } from './post-actions';
import { PostList } from './post-list';
import '../posts.css';

/** Typing pauses this long before the search runs (each run is a request). */
const SEARCH_DELAY_MS = 350;

const TAB_ICONS = { saved: IconBookmark, recommended: IconCompass, new: IconCompass, subscribed: IconUsers };

/**
 * The feed (/posts/:type/): tabs, the search box (`?q=`, kept across tabs), and the tab's posts.
 * Saved and subscribed are about me: a guest is asked to sign in there.
 */
export function PostsFeed({ tab }: { tab: FeedTab }) {
  const { t } = useTranslation();
  const tabsRef = useScrollHint<HTMLDivElement>();
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const [typed, setTyped] = useState(params.get('q') ?? '');
  // A new address (tab link, back button) brings its own query into the box.
  const [shownQ, setShownQ] = useState(q);
  if (shownQ !== q) {
    setShownQ(q);
    if (typed.trim() !== q) setTyped(q);
  }

  useEffect(() => {
    if (typed.trim() === q) return;
    const timer = setTimeout(() => setParams(searchParams(typed), { replace: true }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, q, setParams]);

  function submit(event: FormEvent) {
    event.preventDefault();
    setParams(searchParams(typed), { replace: true });
  }

  const Icon = q ? IconSearch : TAB_ICONS[tab];
  const emptyTitle = t(emptyMessageKey(tab, q));
  return (
    <>
      <PageHeading title={t('feed.title')} subtitle={t('feed.subtitle')} />
      <div className="tabs" role="tablist" aria-label={t('feed.title')} ref={tabsRef}>
        {FEED_TABS.map((name) => (
          <Link
            key={name}
            to={routeOfTab(name, q)}
            role="tab"
            aria-selected={name === tab}
            className={`tabs__tab${name === tab ? ' is-active' : ''}`}
            data-testid={`feed-tab-${name}`}
            replace
          >
            {t(`feed.tabs.${name === 'recommended' ? 'top' : name}`)}
          </Link>
        ))}
      </div>
      <form role="search" onSubmit={submit}>
        <TextInput
          search
          theme="glass"
          value={typed}
          onValueChange={setTyped}
          placeholder={t('home.searchPlaceholder')}
          aria-label={t('home.searchPlaceholder')}
          maxLength={POST_SEARCH_MAX_LENGTH}
          data-testid="feed-search"
        />
      </form>
      {isPersonalTab(tab) && !isLoggedIn ? (
        <EmptyState
          icon={<Icon size={28} />}
          title={t(`social.feed.signIn.${tab}`)}
          text={t('social.feed.signInText')}
          action={
            <Button theme="primary" onClick={() => useAppStore.getState().openAuthPopup(routeOfTab(tab, q))}>
              {t('auth.signIn')}
            </Button>
          }
        />
      ) : (
        <PostList
          // A signed-in person sees their own saved flags: their list is not a guest's.
          key={`${tab}:${q}:${isLoggedIn}`}
          {...feedListQuery(tab, q, isLoggedIn)}
          testId="feed-grid"
          actions={(post) => <FeedPostActions post={post} />}
          empty={
            <div data-testid="feed-empty">
              <EmptyState
                icon={<Icon size={28} />}
                title={emptyTitle}
                text={q ? t('social.feed.noResultsText') : t(`social.feed.emptyText.${tab}`)}
              />
            </div>
          }
        />
      )}
    </>
  );
}

function searchParams(typed: string): Record<string, string> {
  const q = typed.trim();
  return q ? { q } : {};
}
