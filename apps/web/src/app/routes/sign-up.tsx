import { PageFrame } from '../../components/ui/page';
import { SignUpForm } from '../../features/auth';

export function Page() {
  return (
    <PageFrame width="narrow" testId="sign-up-page">
      <div className="auth-card">
        <SignUpForm />
      </div>
    </PageFrame>
  );
}
