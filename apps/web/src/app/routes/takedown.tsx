import { TakedownPage } from '../../features/takedowns';

export function Page() {
  return <TakedownPage />;
}
