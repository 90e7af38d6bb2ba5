// Good: a feature uses the shared lib/ and components/.
import { box } from '../../components/box';
import { shout } from '../../lib/shout';

export const alphaName = shout('alpha');
export const alphaSecret = box;
