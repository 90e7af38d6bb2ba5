import { useParams } from 'react-router';
import { PageFrame } from '../../components/ui/page';
import { SharedResultView } from '../../features/posts';

/** A result shared by link (/s/:token/), open to anyone with the link. */
export function Page() {
  const { token = '' } = useParams();
  return (
    <PageFrame width="wide" testId="share-page">
      <SharedResultView key={token} token={token} />
    </PageFrame>
  );
}
