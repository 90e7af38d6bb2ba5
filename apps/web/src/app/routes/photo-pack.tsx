import { useParams } from 'react-router';
import { PageFrame } from '../../components/ui/page';
import { PhotoPackPurchase } from '../../features/generations';

/** One photo pack, and buying it (/packs/<uuid>/). */
export function Page() {
  const { uuid = '' } = useParams();
  return (
    <PageFrame width="narrow" testId="pack-page">
      <PhotoPackPurchase key={uuid} uuid={uuid} />
    </PageFrame>
  );
}
