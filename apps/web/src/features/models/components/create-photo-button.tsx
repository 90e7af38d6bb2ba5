import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { IconSparkles } from '../../../components/ui/icons';
import { loadUser, useSession } from '../../../lib/session';

/** Where "Create a photo" leads: a face photo with this model chosen. */
export const createPhotoPath = (modelUuid: string) => `/generate/face_swap/?model=${modelUuid}`;

/**
 * "Create a photo" with a ready model. Face swap's page lets in only users with a trained model
 * (`lora`), so a session that has not caught up with the training yet reads the user first.
 */
export function CreatePhotoButton({ modelUuid, onLeave }: { modelUuid: string; onLeave?(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  async function go() {
    setBusy(true);
    try {
      if (!useSession.getState().user?.lora) await loadUser();
    } finally {
      setBusy(false);
    }
    onLeave?.();
    void navigate(createPhotoPath(modelUuid));
  }
  return (
    <Button
      theme="primary"
      size="lg"
      block
      loading={busy}
      icon={<IconSparkles size={20} />}
      onClick={() => void go()}
      data-testid="create-photo"
    >
      {t('model.createPhoto')}
    </Button>
  );
}
