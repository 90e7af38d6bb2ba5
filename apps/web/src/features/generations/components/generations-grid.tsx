import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ButtonLink } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconAlert, IconGallery, IconVideo } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { ListMore } from '../../../components/ui/paged-list-parts';
import { Spinner } from '../../../components/ui/spinner';
import type { TGeneration } from '../../../lib/api-types';
import { MOVES_WITH_BALANCE } from '../../credits';
import { generationKeys, generationsApi } from '../api/generations.api';
import { isFinished, phaseOf, progressPercent } from '../generation-status';
import { useLoadMoreOnView } from '../../../lib/use-load-more-on-view';
import { isVideoResult, smallestVariant } from '../../../lib/image-variants';
import '../generations.css';

/** While something in the list is still running, it is read again this often (badges move on). */
const RUNNING_REFRESH_MS = 4000;

/**
 * My generations on home, newest first: thumbnails from the smallest WebP rendition, badges on
 * running and failed ones, more loaded as the end comes into view.
 */
export default function GenerationsGrid() {
  const { t } = useTranslation();
  const list = useInfiniteQuery({
    queryKey: generationKeys.list(),
    meta: MOVES_WITH_BALANCE,
    queryFn: ({ pageParam }) => generationsApi.list(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.results.some((g) => !isFinished(g.status)))
        ? RUNNING_REFRESH_MS
        : false,
  });
  const sentinel = useLoadMoreOnView(list);
  const items = list.data?.pages.flatMap((page) => page.results) ?? [];

  if (list.isPending) {
    return (
      <div className="gen-grid" aria-busy="true">
        {Array.from({ length: 6 }, (_, index) => (
          <span key={index} className="gen-tile gen-tile--skeleton" />
        ))}
      </div>
    );
  }
  // A failed refresh or later page keeps what is shown (ListMore offers the page's retry).
  if (!list.data) return <LoadError query={list} />;
  if (items.length === 0) {
    return (
      <EmptyState
        icon={<IconGallery size={28} />}
        title={t('home.emptyTitle')}
        text={t('home.emptyText')}
        action={
          <ButtonLink to="/create/" theme="primary-outline">
            {t('home.emptyAction')}
          </ButtonLink>
        }
      />
    );
  }
  return (
    <>
      <ul className="gen-grid" data-testid="generations-grid">
        {items.map((generation, index) => (
          <li key={generation.uuid}>
            <GenerationTile generation={generation} eager={index < FIRST_ROW_TILES} />
          </li>
        ))}
      </ul>
      <ListMore list={list} sentinel={sentinel} className="center gen-grid__more" testId="generations-more" />
    </>
  );
}

/**
 * Tiles in the grid's first row on the widest layout: they are the first screen, so they load at
 * once and first; every later tile waits until it nears the screen.
 */
const FIRST_ROW_TILES = 4;

type Picture = { url: string; width: number; height: number };

/**
 * A tile's picture. A video shows its poster first (what the first screen loads) and turns into
 * its looping animated preview once the tile is in view, unless the user asked for less motion.
 */
function TileImage({ thumb, preview, eager }: { thumb: Picture; preview: Picture | null; eager: boolean }) {
  const ref = useRef<HTMLImageElement>(null);
  const [isAnimated, setAnimated] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!preview || !element || typeof IntersectionObserver === 'undefined') return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        setAnimated(true);
        observer.disconnect();
      },
      { rootMargin: '100px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [preview]);
  return (
    <img
      ref={ref}
      src={isAnimated && preview ? preview.url : thumb.url}
      width={thumb.width}
      height={thumb.height}
      alt=""
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      className="gen-tile__img"
      data-animated={isAnimated ? 'true' : undefined}
    />
  );
}

function GenerationTile({ generation, eager }: { generation: TGeneration; eager: boolean }) {
  const { t } = useTranslation();
  const phase = phaseOf(generation.status);
  const thumb = generation.result ? smallestVariant(generation.result.variants) : null;
  const label = generation.prompt || t(`modes.${generation.mode}.title`);
  return (
    <Link
      to={`/generation/${generation.uuid}/`}
      className={`gen-tile gen-tile--${phase}`}
      data-testid="generation-tile"
      data-status={generation.status}
      aria-label={label}
    >
      {thumb ? (
        <TileImage thumb={thumb} preview={generation.result?.preview ?? null} eager={eager} />
      ) : (
        <span className="gen-tile__placeholder" aria-hidden="true" />
      )}
      {phase === 'failed' ? (
        <span className="gen-tile__badge gen-tile__badge--failed" data-testid="tile-badge">
          <IconAlert size={14} />
          {t('home.statusFailed')}
        </span>
      ) : phase !== 'completed' ? (
        <span className="gen-tile__badge" data-testid="tile-badge">
          <Spinner size={12} />
          {phase === 'queued'
            ? t('result.queued')
            : `${progressPercent(generation.status, generation.progress)}%`}
        </span>
      ) : generation.result && isVideoResult(generation.result) ? (
        <span className="gen-tile__badge" data-testid="tile-video-badge">
          <IconVideo size={14} />
          {generation.duration
            ? t('generate.videoSeconds', { count: generation.duration })
            : t('modes.video.title')}
        </span>
      ) : null}
    </Link>
  );
}
