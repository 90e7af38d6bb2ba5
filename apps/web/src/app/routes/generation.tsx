import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { IconSparkles } from '../../components/ui/icons';
import { LoadError } from '../../components/ui/load-error';
import { PageFrame } from '../../components/ui/page';
import { Spinner } from '../../components/ui/spinner';
import { GenerationView, useLiveGeneration } from '../../features/generations';
import { ApiError } from '../../lib/api-error';
import { MissingItem } from './missing-item';

/** The result screen (/generation/<uuid>/): live progress, then the result or what went wrong. */
export function Page() {
  const { uuid = '' } = useParams();
  return <LiveGeneration key={uuid} uuid={uuid} />;
}

function LiveGeneration({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const generation = useLiveGeneration(uuid);
  if (generation.data) {
    return (
      <PageFrame width="narrow" testId="generation-page">
        <GenerationView generation={generation.data} isPolling={generation.isPolling} />
      </PageFrame>
    );
  }
  if (
    generation.error instanceof ApiError &&
    (generation.error.status === 404 || generation.error.status === 400)
  ) {
    return (
      <MissingItem
        testId="generation-page"
        icon={<IconSparkles size={30} />}
        title={t('generation.missingTitle')}
        text={t('generation.missingText')}
      />
    );
  }
  return (
    <PageFrame width="narrow" testId="generation-page">
      {generation.isError ? (
        <LoadError query={generation} />
      ) : (
        <div className="center">
          <Spinner size={28} label={t('common.loading')} />
        </div>
      )}
    </PageFrame>
  );
}
