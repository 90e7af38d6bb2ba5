import { useTranslation } from 'react-i18next';
import { IconImage } from '../../components/ui/icons';
import { MissingItem } from './missing-item';

export function Page() {
  const { t } = useTranslation();
  return (
    <MissingItem
      testId="post-page"
      icon={<IconImage size={30} />}
      title={t('post.missingTitle')}
      text={t('post.missingText')}
    />
  );
}
