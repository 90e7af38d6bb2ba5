import { useParams } from 'react-router';
import { PageFrame } from '../../components/ui/page';
import { UserProfileView } from '../../features/social';

/** Someone's profile (/profile/:uuid/; a `p_<uuid>` start parameter leads here). */
export function Page() {
  const { uuid = '' } = useParams();
  return (
    <PageFrame testId="user-profile-page" width="wide">
      <UserProfileView key={uuid} uuid={uuid} />
    </PageFrame>
  );
}
