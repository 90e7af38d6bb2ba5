import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IMAGE_COUNT_MAX } from '@mirra/contracts';
import { Link } from 'react-router';
import type { TGeneration } from '../../../lib/api-types';
import { smallestVariant } from '../../../lib/image-variants';
import { generationKeys, generationsApi } from '../api/generations.api';
import { isFinished, phaseOf } from '../generation-status';
import { POLL_INTERVAL_MS } from '../hooks/use-live-generation';
import '../generations.css';
import '../photo-packs.css';

/**
 * The pictures one run made, side by side: each fills in as it is made (its progress until then),
 * and opens its own result screen, where it is downloaded, published, edited or enlarged on its
 * own. A picture that failed says so (it was refunded by itself).
 */
export function GenerationSet({ generation }: { generation: TGeneration }) {
  const { t } = useTranslation();
  const set = generation.set;
  const members = useQuery({
    queryKey: [...generationKeys.all, 'set', set?.uuid ?? ''],
    queryFn: () => generationsApi.listSet(set!.uuid),
    enabled: Boolean(set),
    // Asked again while any picture is still being made.
    refetchInterval: (query) =>
      query.state.data?.results.some((member) => !isFinished(member.status)) ? POLL_INTERVAL_MS : false,
  });
  if (!set) return null;
  const shown = members.data?.results ?? [];
  return (
    <>
      {set.size > IMAGE_COUNT_MAX && (
        // A pack's album has more pictures than a strip shows well.
        <Link
          to={`/albums/${set.uuid}/`}
          className="generation-set__album"
          data-testid="generation-set-album"
        >
          {t('packs.openAlbum', { count: set.size })}
        </Link>
      )}
      <nav className="generation-set" aria-label={t('result.setTitle')} data-testid="generation-set">
        {shown.map((member) => {
          const phase = phaseOf(member.status);
          const thumb = member.result ? smallestVariant(member.result.variants) : null;
          const current = member.uuid === generation.uuid;
          return (
            <Link
              key={member.uuid}
              to={`/generation/${member.uuid}/`}
              replace
              className={`generation-set__item${current ? ' generation-set__item--current' : ''}`}
              aria-current={current ? 'page' : undefined}
              aria-label={t('result.setItem', { index: (member.set?.index ?? 0) + 1, total: set.size })}
              data-testid="generation-set-item"
              data-status={member.status}
            >
              {thumb ? (
                <img src={thumb.url} alt="" loading="lazy" />
              ) : phase === 'failed' ? (
                <span className="generation-set__state">{t('result.setFailed')}</span>
              ) : (
                <span className="generation-set__state">{member.progress}%</span>
              )}
            </Link>
          );
        })}
      </nav>
    </>
  );
}
