import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from './app-store';
import { isInTelegram, shareInTelegram } from './telegram';

/**
 * Shares a link: Telegram's share inside the Mini App, the system sheet (Web Share API) where
 * there is one, else the link is copied with a top notification.
 */
export function useShareLink() {
  const { t } = useTranslation();
  return useCallback(
    async (url: string, title: string) => {
      const { showTopinfo } = useAppStore.getState();
      try {
        if (isInTelegram() && shareInTelegram(url, title)) return;
        if (navigator.share) {
          await navigator.share({ url, title });
          return;
        }
        await navigator.clipboard.writeText(url);
        showTopinfo('success', t('common.copied'));
      } catch (error) {
        if ((error as Error).name !== 'AbortError') showTopinfo('error', t('common.copyFailed'));
      }
    },
    [t],
  );
}
