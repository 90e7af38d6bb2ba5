import { PageFrame } from '../../components/ui/page';
import { ModelCreator } from '../../features/models';

/**
 * Model creation: intro with tips, category and name, photos checked as they upload,
 * training with its progress and success dialogs, and my models. Kept alive: the draft, the
 * uploads under way and the choices survive a trip to another page.
 */
export function Page() {
  return (
    <PageFrame width="narrow" testId="upload-page">
      <ModelCreator />
    </PageFrame>
  );
}
