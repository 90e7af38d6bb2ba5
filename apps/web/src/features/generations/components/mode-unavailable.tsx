import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconAlert } from '../../../components/ui/icons';

/** In place of the form (and its price) of a mode that no engine can make right now. */
export function ModeUnavailable() {
  const { t } = useTranslation();
  return (
    <div data-testid="mode-unavailable">
      <EmptyState
        icon={<IconAlert size={28} />}
        title={t('generate.unavailableTitle')}
        text={t('generate.unavailableText')}
      />
      <ButtonLink to="/create/" theme="primary" block>
        {t('generate.unavailableBack')}
      </ButtonLink>
    </div>
  );
}
