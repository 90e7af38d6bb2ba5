import { useTranslation } from 'react-i18next';
import { IconWallet } from '../../components/ui/icons';
import { MissingItem } from './missing-item';

export function Page() {
  const { t } = useTranslation();
  return (
    <MissingItem
      testId="sberpay-page"
      icon={<IconWallet size={30} />}
      title={t('sberpay.missingTitle')}
      text={t('sberpay.missingText')}
    />
  );
}
