import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Sheet } from '../../../components/ui/sheet';
import { TextInput } from '../../../components/ui/text-input';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import { useAppStore } from '../../../lib/app-store';
import { profileApi } from '../../profile';

export function ChangePasswordSheet({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const { alert, fieldErrors, showError, clear } = useFormErrors(['current_password', 'new_password']);

  async function submit(event: FormEvent) {
    event.preventDefault();
    clear();
    setBusy(true);
    try {
      await profileApi.setPassword(current, next);
      useAppStore.getState().showTopinfo('success', t('security.changed'));
      setCurrent('');
      setNext('');
      onClose();
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Sheet open={open} onClose={onClose} title={t('security.title')}>
      <form className="form" onSubmit={submit} noValidate>
        <p className="form__text">{t('security.text')}</p>
        {alert && <Alert>{alert}</Alert>}
        <TextInput
          title={t('security.current')}
          type="password"
          autoComplete="current-password"
          value={current}
          onValueChange={setCurrent}
          error={fieldErrors.current_password}
          maxLength={128}
        />
        <TextInput
          title={t('security.new')}
          type="password"
          autoComplete="new-password"
          value={next}
          onValueChange={setNext}
          error={fieldErrors.new_password}
          maxLength={128}
        />
        <Button type="submit" theme="primary" block loading={busy}>
          {t('security.submit')}
        </Button>
      </form>
    </Sheet>
  );
}
