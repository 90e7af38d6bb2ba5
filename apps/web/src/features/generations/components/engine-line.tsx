import { useTranslation } from 'react-i18next';
import type { TGenerationMode } from '../../../lib/api-types';
import { usePublicConfig } from '../../auth';
import '../generations.css';

/**
 * Which engine will make this mode and what it can do, said before the price: the server's own
 * declaration (/api/config/), worded here. Nothing is shown until the config has loaded.
 */
export function EngineLine({ mode }: { mode: TGenerationMode }) {
  const { t } = useTranslation();
  const offer = usePublicConfig().data?.engines?.[mode];
  if (!offer) return null;
  return (
    <p className="engine-line" data-testid="engine-line" data-ai={offer.ai ? 'true' : 'false'}>
      <strong>{t(offer.ai ? 'engine.ai' : 'engine.offline')}</strong>{' '}
      {offer.abilities.map((ability) => t(`engine.abilities.${ability}`)).join(' ')}
    </p>
  );
}
