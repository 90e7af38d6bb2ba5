import { useTranslation } from 'react-i18next';
import { MODEL_SUBJECTS, type TModelSubject } from '@mirra/contracts';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';

/**
 * Whose face the model is of: me, or someone else (a partner, a client), who then confirms
 * through a link with their own camera check before the model is trained.
 */
export function SubjectPicker({
  value,
  onChange,
}: {
  value: TModelSubject;
  onChange(subject: TModelSubject): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="stack">
      <SegmentedChoice
        title={t('consent.subject')}
        value={value}
        onChange={onChange}
        options={MODEL_SUBJECTS.map((name) => ({
          value: name,
          label: t(`consent.subjects.${name}`),
          testId: `subject-${name}`,
        }))}
      />
      {value === 'other' && (
        <p className="muted-note" data-testid="subject-other-note">
          {t('consent.otherNote')}
        </p>
      )}
    </div>
  );
}
