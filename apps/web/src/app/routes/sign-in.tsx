import { PageFrame } from '../../components/ui/page';
import { SignInPanel } from '../../features/auth';

export function Page() {
  return (
    <PageFrame width="narrow" testId="sign-in-page">
      <div className="auth-card">
        <SignInPanel />
      </div>
    </PageFrame>
  );
}
