import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { STAFF_REASON_MAX_LENGTH } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button, type ButtonTheme } from '../../../components/ui/button';
import { TextInput } from '../../../components/ui/text-input';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import { useAction } from '../../../lib/use-action';

export interface ReasonAction {
  id: string;
  label: string;
  theme: ButtonTheme;
  /** Asked before an action that cannot be taken back (money leaving, a refusal, a removal): the button must be pressed a second time. */
  confirm?: string;
  run(reason: string): Promise<unknown>;
}

/**
 * Staff actions that need a reason (it goes to the audit log): one reason field, one button per
 * action, the pressed one spinning while it runs and errors said in place.
 */
export function ReasonActions({
  actions,
  onDone,
  testId,
}: {
  actions: ReasonAction[];
  onDone(actionId: string): void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [armed, setArmed] = useState<string | null>(null);
  const errors = useFormErrors(['reason']);
  const action = useAction({
    run: (id: string) => actions.find((entry) => entry.id === id)!.run(reason.trim()),
    onSuccess: (_result, id) => {
      setReason('');
      setArmed(null);
      onDone(id);
    },
    onError: errors.showError,
  });

  function start(id: string) {
    errors.clear();
    if (!reason.trim()) {
      errors.setAlert(t('admin.reasonRequired'));
      return;
    }
    if (actions.find((entry) => entry.id === id)?.confirm && armed !== id) {
      setArmed(id);
      return;
    }
    setChosen(id);
    action.mutate(id);
  }

  return (
    <form
      className="admin__actions"
      noValidate
      data-testid={testId}
      onSubmit={(event: FormEvent) => event.preventDefault()}
    >
      <TextInput
        title={t('admin.reason')}
        value={reason}
        onValueChange={setReason}
        maxLength={STAFF_REASON_MAX_LENGTH}
        error={errors.fieldErrors.reason}
        data-testid={testId ? `${testId}-reason` : undefined}
      />
      {errors.alert && <Alert>{errors.alert}</Alert>}
      {armed && (
        <p className="admin__confirm" role="alert" data-testid={testId ? `${testId}-confirm` : undefined}>
          {actions.find((entry) => entry.id === armed)?.confirm}
        </p>
      )}
      <div className="admin__buttons">
        {actions.map((entry) => (
          <Button
            key={entry.id}
            theme={entry.theme}
            size="sm"
            loading={action.isPending && chosen === entry.id}
            disabled={action.isPending}
            onClick={() => start(entry.id)}
            data-testid={testId ? `${testId}-${entry.id}` : undefined}
          >
            {armed === entry.id ? t('admin.confirmYes') : entry.label}
          </Button>
        ))}
        {armed && (
          <Button theme="light" size="sm" disabled={action.isPending} onClick={() => setArmed(null)}>
            {t('admin.confirmNo')}
          </Button>
        )}
      </div>
    </form>
  );
}
