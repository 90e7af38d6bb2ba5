import { useTranslation } from 'react-i18next';
import { IconFace } from '../../components/ui/icons';
import { MissingItem } from './missing-item';

export function Page() {
  const { t } = useTranslation();
  return (
    <MissingItem
      testId="model-page"
      icon={<IconFace size={30} />}
      title={t('model.missingTitle')}
      text={t('model.missingText')}
    />
  );
}
