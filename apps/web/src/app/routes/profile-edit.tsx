import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PageFrame } from '../../components/ui/page';
import { Spinner } from '../../components/ui/spinner';
import { TextInput } from '../../components/ui/text-input';
import { useFormErrors } from '../../components/ui/use-form-errors';
import { useUpdateProfile } from '../../features/profile';
import type { TUser } from '../../lib/api-types';
import { useAppStore } from '../../lib/app-store';
import { useSession } from '../../lib/session';

const FIELDS = ['firstName', 'lastName', 'username', 'phone', 'instagram'] as const;
type Field = (typeof FIELDS)[number];
const LIMITS: Record<Field, number> = {
  firstName: 150,
  lastName: 150,
  username: 32,
  phone: 24,
  instagram: 31,
};
const AUTOCOMPLETE: Record<Field, string> = {
  firstName: 'given-name',
  lastName: 'family-name',
  username: 'username',
  phone: 'tel',
  instagram: 'off',
};

function ProfileForm({ user }: { user: TUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>(() => ({
    firstName: user.firstName,
    lastName: user.lastName,
    username: user.username,
    phone: user.phone,
    instagram: user.instagram,
  }));
  const [busy, setBusy] = useState(false);
  const updateProfile = useUpdateProfile();
  const { alert, fieldErrors, showError, clear, clearField } = useFormErrors(FIELDS);

  async function submit(event: FormEvent) {
    event.preventDefault();
    clear();
    setBusy(true);
    try {
      await updateProfile(values);
      useAppStore.getState().showTopinfo('success', t('profile.saved'));
      await navigate('/profile/');
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form card card--form" onSubmit={submit} noValidate data-testid="profile-edit-form">
      {alert && <Alert>{alert}</Alert>}
      <div className="form__grid">
        {(['firstName', 'lastName'] as const).map((field) => (
          <TextInput
            key={field}
            name={field}
            title={t(`profile.${field}`)}
            autoComplete={AUTOCOMPLETE[field]}
            value={values[field]}
            maxLength={LIMITS[field]}
            error={fieldErrors[field]}
            onValueChange={(value) => {
              setValues((v) => ({ ...v, [field]: value }));
              clearField(field);
            }}
          />
        ))}
      </div>
      {(['username', 'phone', 'instagram'] as const).map((field) => (
        <TextInput
          key={field}
          name={field}
          title={t(`profile.${field}`)}
          type={field === 'phone' ? 'tel' : 'text'}
          autoComplete={AUTOCOMPLETE[field]}
          placeholder={t(`profile.placeholders.${field}`)}
          value={values[field]}
          maxLength={LIMITS[field]}
          error={fieldErrors[field]}
          onValueChange={(value) => {
            setValues((v) => ({ ...v, [field]: value }));
            clearField(field);
          }}
        />
      ))}
      <TextInput
        title={t('auth.email')}
        value={user.email ?? ''}
        onValueChange={() => undefined}
        disabled
        theme="outline"
        hint={t('profile.emailHint')}
      />
      <Button type="submit" theme="primary" size="lg" block loading={busy} data-testid="profile-save">
        {t('common.save')}
      </Button>
    </form>
  );
}

export function Page() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  return (
    <PageFrame width="narrow" testId="profile-edit-page">
      {user ? <ProfileForm key={user.id} user={user} /> : <Spinner size={32} label={t('common.loading')} />}
    </PageFrame>
  );
}
