import { useParams } from 'react-router';
import { ConsentPage } from '../../features/models';

/** A consent request for a model of someone else (/consent/:token/), open to anyone with the link. */
export function Page() {
  const { token = '' } = useParams();
  return <ConsentPage key={token} token={token} />;
}
