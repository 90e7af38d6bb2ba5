import { downloadInTelegram } from '../../lib/telegram';
import { isInTelegram } from '../../lib/telegram/detect';
import { profileApi } from '../profile';

/**
 * Downloads everything Mirra holds about me as one ZIP: asks for a short-lived link, then lets the
 * browser (or Telegram's download prompt, since many Telegram web views ignore download links)
 * fetch it. Rejects when the link cannot be had or Telegram refuses.
 */
export async function downloadMyData(): Promise<void> {
  const link = await profileApi.exportLink();
  const url = new URL(link.url, window.location.origin).toString();
  const fileName = `mirra-data-${new Date().toISOString().slice(0, 10)}.zip`;
  if (isInTelegram() && (await downloadInTelegram(url, fileName))) return;
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
