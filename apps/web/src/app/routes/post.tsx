import { useParams } from 'react-router';
import { PageFrame } from '../../components/ui/page';
import { RepeatPostButton } from '../../features/generations';
import { PostView } from '../../features/posts';

/** One post (/post/:uuid/). */
export function Page() {
  const { uuid = '' } = useParams();
  return (
    <PageFrame width="wide" testId="post-page">
      <PostView key={uuid} uuid={uuid} renderRepeat={(post) => <RepeatPostButton post={post} />} />
    </PageFrame>
  );
}
