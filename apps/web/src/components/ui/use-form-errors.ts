import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../lib/app-store';
import { describeError, type ShownError } from '../../lib/error-messages';

/** Form error state fed from failed API calls: per-field messages and one alert. */
export function useFormErrors(formFields: readonly string[]) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<ShownError>({ alert: null, fields: {} });
  const fieldKey = formFields.join('|');

  const showError = useCallback(
    (error: unknown) => {
      useAppStore.getState().setPreloader(false);
      setShown(describeError(t, error, fieldKey.split('|')));
    },
    [t, fieldKey],
  );
  const clear = useCallback(() => setShown({ alert: null, fields: {} }), []);
  const clearField = useCallback(
    (field: string) =>
      setShown((current) => {
        if (!current.fields[field]) return current;
        const fields = { ...current.fields };
        delete fields[field];
        return { ...current, fields };
      }),
    [],
  );
  return {
    alert: shown.alert,
    fieldErrors: shown.fields,
    showError,
    clear,
    clearField,
    setAlert: (alert: string | null) => setShown((s) => ({ ...s, alert })),
  };
}
