import { VerifyPage } from '../../features/provenance';

export function Page() {
  return <VerifyPage />;
}
