import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TNotificationPreferences } from '@mirra/contracts';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { useAppStore } from '../../../lib/app-store';
import { useAction } from '../../../lib/use-action';
import { notificationKeys, notificationsApi } from '../api/notifications.api';
import '../notification-preferences.css';

type Channel = 'in_app' | 'telegram' | 'email';
type Change = {
  category: TNotificationPreferences['categories'][number]['category'];
  channel: Channel;
  enabled: boolean;
};

const CHANNELS: readonly Channel[] = ['in_app', 'telegram', 'email'];

function withChange(prefs: TNotificationPreferences | undefined, change: Change) {
  if (!prefs) return prefs;
  return {
    ...prefs,
    categories: prefs.categories.map((row) =>
      row.category === change.category ? { ...row, [change.channel]: change.enabled } : row,
    ),
  };
}

/**
 * Which notices reach me where: a switch per category for each channel the account has (Telegram
 * once linked, email once it has one). A switch flips at once and flips back, with a message, if
 * the server does not take the change.
 */
export function NotificationPreferences() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = notificationKeys.preferences();
  const prefs = useQuery({ queryKey: key, queryFn: notificationsApi.preferences });
  const save = useAction({
    run: (change: Change) => notificationsApi.updatePreferences([change]),
    onStart: (change) => {
      queryClient.setQueryData<TNotificationPreferences>(key, (current) => withChange(current, change));
    },
    onError: (_error, change) => {
      // Only this switch goes back: others flipped meanwhile keep their own outcome.
      queryClient.setQueryData<TNotificationPreferences>(key, (current) =>
        withChange(current, { ...change, enabled: !change.enabled }),
      );
      useAppStore.getState().showTopinfo('error', t('notificationSettings.saveFailed'));
    },
  });

  if (prefs.isPending) return <Spinner />;
  if (prefs.isError) return <LoadError query={prefs} />;
  const data = prefs.data;
  return (
    <>
      <p className="lead">{t('notificationSettings.lead')}</p>
      {CHANNELS.filter((channel) => data.channels[channel]).map((channel) => (
        <section key={channel} className="settings-group" data-testid={`notification-channel-${channel}`}>
          <h2 className="settings-group__title">{t(`notificationSettings.channels.${channel}`)}</h2>
          <div className="list">
            {data.categories.map((row) => {
              const id = `pref-${row.category}-${channel}`;
              return (
                <label key={row.category} className="list__row notification-pref" htmlFor={id}>
                  <span className="list__label">{t(`notificationSettings.categories.${row.category}`)}</span>
                  <input
                    id={id}
                    type="checkbox"
                    role="switch"
                    className="switch"
                    checked={row[channel]}
                    onChange={(event) =>
                      save.mutate({ category: row.category, channel, enabled: event.target.checked })
                    }
                    data-testid={id}
                  />
                </label>
              );
            })}
          </div>
        </section>
      ))}
      <p className="muted-note">{t('notificationSettings.alwaysSent')}</p>
    </>
  );
}
