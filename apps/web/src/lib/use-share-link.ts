import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../lib/app-store';

/** Shares a link with the system sheet where there is one, else copies it. */
export function useShareLink() {
  const { t } = useTranslation();
  return useCallback(
    async (url: string, title: string) => {
      const { showTopinfo } = useAppStore.getState();
      try {
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
