import { useTranslation } from 'react-i18next';
import { IconSparkles } from '../../components/ui/icons';
import { MissingItem } from './missing-item';

export function Page() {
  const { t } = useTranslation();
  return (
    <MissingItem
      testId="generation-page"
      icon={<IconSparkles size={30} />}
      title={t('generation.missingTitle')}
      text={t('generation.missingText')}
    />
  );
}
