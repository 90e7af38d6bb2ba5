import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconDownload, IconImage } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { Spinner } from '../../../components/ui/spinner';
import { useAppStore } from '../../../lib/app-store';
import { describeError } from '../../../lib/error-messages';
import { smallestVariant } from '../../../lib/image-variants';
import { downloadInTelegram } from '../../../lib/telegram';
import { isInTelegram } from '../../../lib/telegram/detect';
import { generationKeys, generationsApi } from '../api/generations.api';
import { isFinished, phaseOf } from '../generation-status';
import { POLL_INTERVAL_MS } from '../hooks/use-live-generation';
import '../photo-packs.css';

/**
 * An album: the pictures of one run (a photo pack's), filling in live as each is made, with how
 * many are ready; each opens its own result screen (publish, edit, upscale), and "download all"
 * takes the finished ones as one ZIP. A picture that failed says it was refunded.
 */
export function PhotoPackAlbum({ setUuid }: { setUuid: string }) {
  const { t } = useTranslation();
  const [downloading, setDownloading] = useState(false);
  const album = useQuery({
    queryKey: [...generationKeys.all, 'set', setUuid],
    queryFn: () => generationsApi.listSet(setUuid),
    refetchInterval: (query) =>
      query.state.data?.results.some((member) => !isFinished(member.status)) ? POLL_INTERVAL_MS : false,
  });
  if (album.isPending) {
    return (
      <div className="center">
        <Spinner size={26} label={t('common.loading')} />
      </div>
    );
  }
  if (album.isError) return <LoadError query={album} />;
  const pictures = album.data.results;
  // Not one of my runs (or a mistyped address): nothing to show, said so.
  if (!pictures.length) return <EmptyState icon={<IconImage size={28} />} title={t('packs.albumMissing')} />;
  const ready = pictures.filter((picture) => phaseOf(picture.status) === 'completed').length;
  const failed = pictures.filter((picture) => phaseOf(picture.status) === 'failed').length;
  const finished = ready + failed === pictures.length;
  const progress = pictures.reduce(
    (sum, picture) => sum + (isFinished(picture.status) ? 100 : picture.progress),
    0,
  );

  async function downloadAll() {
    setDownloading(true);
    try {
      const link = await generationsApi.archiveLink(setUuid);
      const url = new URL(link.url, window.location.origin).toString();
      const fileName = `mirra-album-${setUuid.slice(0, 8)}.zip`;
      if (isInTelegram() && (await downloadInTelegram(url, fileName))) return;
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = fileName;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
    } catch (error) {
      useAppStore.getState().showTopinfo('error', describeError(t, error).alert ?? t('errors.network'));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <div className="stack" data-testid="photo-pack-album" data-ready={ready} data-total={pictures.length}>
      <div>
        <h1 className="photo-pack-page__title">{t('packs.albumTitle')}</h1>
        <p className="muted-note" aria-live="polite" data-testid="photo-pack-album-count">
          {finished
            ? t('packs.albumDone', { count: ready })
            : t('packs.albumFilling', { ready, total: pictures.length })}
          {failed > 0 && <> · {t('packs.albumRefunded', { count: failed })}</>}
        </p>
        {!finished && (
          <ProgressBar value={progress} max={pictures.length * 100} label={t('packs.albumTitle')} />
        )}
      </div>
      <Button
        theme="light"
        block
        icon={<IconDownload size={18} />}
        disabled={ready === 0}
        loading={downloading}
        onClick={() => void downloadAll()}
        data-testid="photo-pack-download"
      >
        {t('packs.downloadAll', { count: ready })}
      </Button>
      <div className="photo-pack-album">
        {pictures.map((picture, index) => {
          const phase = phaseOf(picture.status);
          const thumb = picture.result ? smallestVariant(picture.result.variants) : null;
          return (
            <Link
              key={picture.uuid}
              to={`/generation/${picture.uuid}/`}
              className="photo-pack-album__item"
              aria-label={t('result.setItem', { index: index + 1, total: pictures.length })}
              data-testid="photo-pack-album-item"
              data-status={picture.status}
            >
              {thumb ? (
                <img src={thumb.url} alt="" loading="lazy" />
              ) : phase === 'failed' ? (
                <span className="photo-pack-album__state">{t('packs.pictureRefunded')}</span>
              ) : (
                <span className="photo-pack-album__state">{picture.progress}%</span>
              )}
            </Link>
          );
        })}
      </div>
    </div>
  );
}
