import { Navigate, useLocation, useParams } from 'react-router';
import { modeDeclaration } from '@mirra/contracts';
import { PageFrame } from '../../components/ui/page';
import { GenerateForm, isGenerationMode, ModeUnavailable, useModeOffered } from '../../features/generations';
import { useSession } from '../../lib/session';
import { Page as NotFound } from './not-found';

/**
 * Generate in one mode, from scratch, from one of my results (`generation/<uuid>/`: it becomes the
 * source photo) or from a post (`post/<uuid>/`, carried for the author's royalty). Face swap needs
 * a trained model first (otherwise /upload/).
 */
export function Page() {
  // The face-swap routes name the mode in the path itself (no :mode parameter).
  const { mode = 'face_swap', generation_uuid: generationUuid, post_uuid: postUuid } = useParams();
  const { pathname } = useLocation();
  const { user, isLoggedIn } = useSession();
  const offered = useModeOffered();
  if (!isGenerationMode(mode)) return <NotFound />;
  // A mode that works with the user's face needs a trained digital model first.
  if (modeDeclaration(mode).inputs.model && isLoggedIn && user && !user.lora) {
    return <Navigate to="/upload/" replace />;
  }
  if (!offered(mode)) {
    return (
      <PageFrame width="narrow" testId="generate-page">
        <ModeUnavailable />
      </PageFrame>
    );
  }
  return (
    <PageFrame width="narrow" testId="generate-page">
      {/* A new address is a new form (its own draft and source). */}
      <GenerateForm key={pathname} mode={mode} sourceGenerationUuid={generationUuid} postUuid={postUuid} />
    </PageFrame>
  );
}
