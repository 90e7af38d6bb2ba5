import { useParams } from 'react-router';
import { PageFrame } from '../../components/ui/page';
import { PostsFeed, tabOfRoute } from '../../features/posts';
import { Page as NotFound } from './not-found';

/** The feed (/posts/:type/): `top` and `recommended` are one tab; any other name is not a page. */
export function Page() {
  const { type } = useParams();
  const tab = tabOfRoute(type);
  if (!tab) return <NotFound />;
  return (
    <PageFrame width="wide" testId="feed-page">
      <PostsFeed tab={tab} />
    </PageFrame>
  );
}
