import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { IconTrash } from '../../../components/ui/icons';
import { Sheet } from '../../../components/ui/sheet';
import { useAppStore } from '../../../lib/app-store';
import { describeError } from '../../../lib/error-messages';
import { loadUser } from '../../../lib/session';
import { creditKeys } from '../../credits';
import { modelKeys, modelsApi } from '../api/models.api';

/**
 * Deleting a model, confirmed in a sheet: the model, its photos and their files go for good (a
 * training under way is stopped and refunded). The user is read again: `lora` may turn off.
 */
export function DeleteModelSheet({ uuid, open, onClose }: { uuid: string; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setPending(true);
    setError(null);
    try {
      await modelsApi.remove(uuid);
      queryClient.removeQueries({ queryKey: modelKeys.one(uuid) });
      void queryClient.invalidateQueries({ queryKey: modelKeys.list() });
      void queryClient.invalidateQueries({ queryKey: creditKeys.all });
      void loadUser();
      useAppStore.getState().showTopinfo('success', t('model.deleted'));
      void navigate('/upload/', { replace: true });
    } catch (failure) {
      setError(describeError(t, failure).alert ?? t('errors.network'));
      setPending(false);
    }
  }

  return (
    <Sheet open={open} onClose={onClose} title={t('model.deleteTitle')}>
      <div className="stack" data-testid="delete-model-sheet">
        <p className="lead">{t('model.deleteText')}</p>
        {error && <Alert>{error}</Alert>}
        <Button
          theme="danger"
          size="lg"
          block
          loading={pending}
          icon={<IconTrash size={20} />}
          onClick={() => void remove()}
          data-testid="delete-model-confirm"
        >
          {t('model.deleteConfirm')}
        </Button>
        <Button theme="light" size="lg" block onClick={onClose}>
          {t('model.cancel')}
        </Button>
      </div>
    </Sheet>
  );
}
