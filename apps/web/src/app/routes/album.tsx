import { useParams } from 'react-router';
import { PageFrame } from '../../components/ui/page';
import { PhotoPackAlbum } from '../../features/generations';

/** An album: the pictures of one run, such as a photo pack's, filling in (/albums/<set uuid>/). */
export function Page() {
  const { uuid = '' } = useParams();
  return (
    <PageFrame width="narrow" testId="album-page">
      <PhotoPackAlbum key={uuid} setUuid={uuid} />
    </PageFrame>
  );
}
