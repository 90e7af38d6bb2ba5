import { useParams } from 'react-router';
import { PageFrame } from '../../components/ui/page';
import { PostView } from '../../features/posts/components/post-view';

/** One post (/post/:uuid/). */
export function Page() {
  const { uuid = '' } = useParams();
  return (
    <PageFrame width="wide" testId="post-page">
      <PostView key={uuid} uuid={uuid} />
    </PageFrame>
  );
}
