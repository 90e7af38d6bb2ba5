import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PHOTO_PACK_MODE, type TPhotoPack } from '@mirra/contracts';
import { ButtonLink, Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconImage } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { useAppStore } from '../../../lib/app-store';
import { formatCountdown } from '../../../lib/countdown';
import { describeError } from '../../../lib/error-messages';
import { currentLanguage } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { ChargeDialogs, useChargedAction } from '../../credits';
import { generationKeys, generationsApi } from '../api/generations.api';
import { EngineLine } from './engine-line';
import { ModelPicker } from './model-picker';
import '../photo-packs.css';

/** The packs on sale, in the app's language (the catalogue and a pack's page read the same list). */
export function usePhotoPacks() {
  // Read on every render: a change of language re-renders through useTranslation.
  useTranslation();
  const language = currentLanguage();
  return useQuery({
    queryKey: generationKeys.photoPacks(language),
    queryFn: () => generationsApi.photoPacks(language),
  });
}

function PackArt({ pack, large }: { pack: TPhotoPack; large?: boolean }) {
  return (
    <span className={`photo-pack__art${large ? ' photo-pack__art--large' : ''}`} aria-hidden="true">
      {pack.cover_url ? (
        <img src={pack.cover_url} alt="" loading="lazy" />
      ) : pack.emoji_art ? (
        <img className="photo-pack__emoji" src={pack.emoji_art} alt="" />
      ) : (
        <span>{pack.emoji}</span>
      )}
    </span>
  );
}

/**
 * The photo pack catalogue: each pack's cover, what it is, how many pictures it makes and what the
 * whole pack costs, before anything is chosen.
 */
export function PhotoPackCatalogue() {
  const { t } = useTranslation();
  const packs = usePhotoPacks();
  if (packs.isPending) {
    return (
      <div className="center">
        <Spinner size={26} label={t('common.loading')} />
      </div>
    );
  }
  if (packs.isError) return <LoadError query={packs} />;
  if (!packs.data.results.length) {
    return <EmptyState icon={<IconImage size={28} />} title={t('packs.empty')} />;
  }
  return (
    <ul className="photo-pack-list" data-testid="photo-pack-list">
      {packs.data.results.map((pack) => (
        <li key={pack.uuid}>
          <Link to={`/packs/${pack.uuid}/`} className="photo-pack" data-testid="photo-pack">
            <PackArt pack={pack} />
            <span className="photo-pack__body">
              <span className="photo-pack__title">{pack.title}</span>
              <span className="photo-pack__text">{pack.description}</span>
              <span className="photo-pack__facts">
                {t('packs.pictures', { count: pack.pictures })} · {t('packs.price', { count: pack.price })}
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * One pack: what it makes, the digital model it is made of, what the engine can do and the price
 * of the whole pack with the balance, then one purchase that opens the album filling in.
 */
export function PhotoPackPurchase({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  const packs = usePhotoPacks();
  const [modelUuid, setModelUuid] = useState<string | null>(null);
  const quote = useQuery({
    queryKey: generationKeys.packPrice(uuid, isLoggedIn),
    queryFn: () => generationsApi.packPrice(uuid),
  });
  const buy = useChargedAction({
    action: (key) =>
      generationsApi.create({ mode: PHOTO_PACK_MODE, model_uuid: modelUuid, settings: { pack: uuid } }, key),
    inputs: `${uuid}:${modelUuid}`,
    canRun: () => modelUuid !== null,
    onSuccess: (generation) => {
      void queryClient.invalidateQueries({ queryKey: generationKeys.all });
      void navigate(`/albums/${generation.set?.uuid ?? generation.uuid}/`);
    },
    onError: (error) =>
      useAppStore.getState().showTopinfo('error', describeError(t, error).alert ?? t('errors.network')),
  });
  if (packs.isPending) {
    return (
      <div className="center">
        <Spinner size={26} label={t('common.loading')} />
      </div>
    );
  }
  if (packs.isError) return <LoadError query={packs} />;
  const pack = packs.data.results.find((entry) => entry.uuid === uuid);
  if (!pack) return <EmptyState icon={<IconImage size={28} />} title={t('packs.gone')} />;
  const price = quote.data?.cost ?? pack.price;
  const balance = quote.data?.balance ?? null;
  return (
    <div className="stack photo-pack-page" data-testid="photo-pack-page">
      <PackArt pack={pack} large />
      <div>
        <h1 className="photo-pack-page__title">{pack.title}</h1>
        <p className="muted-note">{pack.description}</p>
        <p className="photo-pack__facts">
          {t('packs.pictures', { count: pack.pictures })} · {t('packs.shape', { aspect: pack.aspect })}
        </p>
      </div>
      {isLoggedIn ? (
        <>
          <ModelPicker value={modelUuid} onChange={setModelUuid} enabled={isLoggedIn} />
          <EngineLine mode={PHOTO_PACK_MODE} modelUuid={modelUuid} />
          <p className="photo-pack__price" data-testid="photo-pack-price">
            {t('packs.total', { count: price })}
            {balance !== null && <> · {t('packs.balance', { count: balance })}</>}
          </p>
          <p className="muted-note">{t('packs.refundNote')}</p>
          {buy.waitLeft !== null ? (
            <Button theme="primary" size="lg" block loading onClick={buy.cancelWait}>
              {t('generate.autoSubmitIn', { time: formatCountdown(buy.waitLeft) })}
            </Button>
          ) : (
            <Button
              theme="primary"
              size="lg"
              block
              disabled={!modelUuid}
              loading={buy.pending}
              onClick={() => void buy.run()}
              data-testid="photo-pack-buy"
            >
              {t('packs.buy', { count: pack.pictures, price })}
            </Button>
          )}
          <ChargeDialogs refusal={buy.refusal} onClose={buy.closeRefusal} onSkip={buy.skipWait} />
        </>
      ) : (
        <ButtonLink
          theme="primary"
          size="lg"
          block
          to={`/sign-in/?next=${encodeURIComponent(`/packs/${uuid}/`)}`}
          data-testid="photo-pack-sign-in"
        >
          {t('packs.signIn')}
        </ButtonLink>
      )}
    </div>
  );
}
