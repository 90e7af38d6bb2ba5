import { useParams } from 'react-router';
import { PageFrame } from '../../components/ui/page';
import { PictureToolsMenu, RepeatPostButton } from '../../features/generations';
import { PostGuestView, PostView } from '../../features/posts';
import { useSession } from '../../lib/session';

/** One post (/post/:uuid/); a guest sees it blurred, with its author, behind the sign-in sheet. */
export function Page() {
  const { uuid = '' } = useParams();
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  return (
    <PageFrame width="wide" testId="post-page">
      {isLoggedIn ? (
        <PostView
          key={uuid}
          uuid={uuid}
          renderRepeat={(post) => <RepeatPostButton post={post} />}
          renderTools={(post) => <PictureToolsMenu from={`post/${post.uuid}`} testIdPrefix="post" />}
        />
      ) : (
        <PostGuestView key={uuid} uuid={uuid} />
      )}
    </PageFrame>
  );
}
