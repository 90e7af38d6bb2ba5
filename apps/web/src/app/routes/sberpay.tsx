import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { IconWallet } from '../../components/ui/icons';
import { SberPayInvoice } from '../../features/payments';
import { MissingItem } from './missing-item';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function Page() {
  const { t } = useTranslation();
  const { invoiceId = '' } = useParams();
  const [search] = useSearchParams();
  const key = search.get('key') ?? '';
  const missing = (
    <MissingItem
      testId="sberpay-page"
      icon={<IconWallet size={30} />}
      title={t('sberpay.missingTitle')}
      text={t('sberpay.missingText')}
    />
  );
  if (!UUID.test(invoiceId) || !key) return missing;
  return <SberPayInvoice invoiceId={invoiceId} invoiceKey={key} missing={missing} />;
}
