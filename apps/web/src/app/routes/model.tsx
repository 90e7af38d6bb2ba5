import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { IconFace } from '../../components/ui/icons';
import { LoadError } from '../../components/ui/load-error';
import { PageFrame } from '../../components/ui/page';
import { Spinner } from '../../components/ui/spinner';
import { usePublicConfig } from '../../features/auth';
import { ModelDetails, useLiveModel } from '../../features/models';
import { ApiError } from '../../lib/api-error';
import { MissingItem } from './missing-item';

/** One of my digital models (/model/<uuid>/): live while it trains; not mine or gone is "not found". */
export function Page() {
  const { uuid = '' } = useParams();
  return <LiveModel key={uuid} uuid={uuid} />;
}

function LiveModel({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const model = useLiveModel(uuid);
  // Without a provider's trainer a digital model is the offline face profile: said on its page.
  const localProfile = usePublicConfig().data?.model_training?.ai === false;
  if (model.data) {
    return (
      <PageFrame width="narrow" testId="model-page">
        <ModelDetails model={model.data} isPolling={model.isPolling} />
        {localProfile && (
          <p className="muted-note" data-testid="model-local-profile">
            {t('model.localProfile')}
          </p>
        )}
      </PageFrame>
    );
  }
  if (model.error instanceof ApiError && model.error.status === 404) {
    return (
      <MissingItem
        testId="model-page"
        icon={<IconFace size={30} />}
        title={t('model.missingTitle')}
        text={t('model.missingText')}
      />
    );
  }
  return (
    <PageFrame width="narrow" testId="model-page">
      {model.isError ? (
        <LoadError query={model} />
      ) : (
        <div className="center">
          <Spinner size={28} label={t('common.loading')} />
        </div>
      )}
    </PageFrame>
  );
}
